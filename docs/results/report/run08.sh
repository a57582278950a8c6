#!/bin/bash
# Device call 8 for the report (issue 31), one GPU: the energy bursts launched as CUDA graphs. run06-07's
# cuDNN bursts ran at up to 53 times their paired time per call (the host side of cudnnConvolutionForward
# between 5 us kernels, the GPU idle), so the vendor's joules per call counted idle power. A short search on
# the rows where it was worst, and on rows of the other families; each side's time per call in its bursts
# against its paired time, its mean power and whether its calls were captured as a graph.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s) D=/tmp/db8 S="--db $D --budget 12 --min-search 1 -v"
printf 'w,h,c,n,k,s,r,pad_w,pad_h,stride_w,stride_h\n14,14,256,2,256,1,1,0,0,1,1\n28,28,512,1,128,1,1,0,0,1,1\n175,40,128,2,128,3,3,1,1,1,1\n' >/tmp/c16.csv
printf 'w,h,c,n,k,s,r,pad_w,pad_h,stride_w,stride_h\n7,7,832,1,256,1,1,0,0,1,1\n' >/tmp/c32.csv
printf 'm,n,k,sparsity\n7680,1,2560,0.95\n' >/tmp/sp.csv
printf 'm,n,k,a_t,b_t\n512,6000,2560,0,0\n' >/tmp/g.csv
run() { local s=$(date +%s); timeout -s INT -k 10 120 ./dlbtune "$@" $S 2>&1 >/dev/null | grep "energy of" | sed -e 's/^ *//' | cut -c1-330; echo "== $*: exit ${PIPESTATUS[0]} in $(( $(date +%s) - s )) s"; }
run --op conv --suite /tmp/c16.csv --prec fp16 --layout NHWC
run --op conv --suite /tmp/c32.csv --prec fp32
run --op spmm --suite /tmp/sp.csv
run --op gemm --suite /tmp/g.csv --prec fp32
./dlbtune export --format json --db $D 2>/dev/null | python3 -c '
import json, sys
for r in json.load(sys.stdin)["records"]:
    p = r["best"]["paired"]; e = p.get("energy") or {}; out = []
    for side, tk in (("tuned", "tuned"), ("vendor", "vendor_time")):
        x = e.get(side) or {}
        if not x.get("calls"):
            out.append(side + " none"); continue
        b = 1e6 * x["seconds"] / x["calls"]
        w = "%.0f W" % (x["joules"] / x["seconds"]) if x.get("steady") else "n/a"
        out.append("%s %.2f us/call in bursts (paired %.2f), %s, %s" % (side, b, p[tk]["median_us"], w,
                   "graphed" if x.get("graphed") else "one by one"))
    print(r["op"], r["prec"], r["key"].split("|")[4], "; ".join(out))
' | tee $OUT/bursts.txt
echo "== total $(( $(date +%s) - t0 )) s"
