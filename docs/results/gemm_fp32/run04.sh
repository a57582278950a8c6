#!/bin/bash
# Device call 4 for issue 30: (1) the fp32 template after its split-K sum became shared helpers: the skinny
# family on every shape, a sample of all; (2) int8's vendor route through TN (cublasLt-TN#a: operands
# transposed by cublasLtMatrixTransform inside the call) on rows of each layout, every vendor entry listed.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
export DLB_REQUIRE_GPU=1 DLB_VERIFY_CACHE=/tmp/vdb
DLB_VERIFY_ONLY="KIND=2" tests/gpu_gemm_verify fp32 2>&1 | grep -E "^(WRONG|ERROR)|runs over" | head -5
DLB_VERIFY_EVERY=8 tests/gpu_gemm_verify fp32 2>&1 | grep -E "^(WRONG|ERROR)|runs over" | head -5
echo "== verify $(( $(date +%s) - t0 )) s"
printf 'm,n,k,a_t,b_t\n5124,700,2048,0,0\n35,700,2048,0,0\n7680,1,2560,0,0\n3072,16,1024,0,1\n2048,16,2048,1,1\n2048,16,2048,1,0\n' > /tmp/i8.csv
timeout -s INT -k 10 300 ./dlbtune --op gemm --prec int8 --suite /tmp/i8.csv --db /tmp/db4 --min-search 1 \
	2>&1 >/dev/null | grep "^\[" | cut -c1-200
./dlbtune export --format json --db /tmp/db4 2>/dev/null > $OUT/i8.json
python3 - $OUT/i8.json <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["records"]:
    print(r["key"].split("|")[3:5], "tuned %.2f us" % r["best"]["tuned"]["median_us"])
    for v in r.get("vendor", []):
        med = (v.get("stats") or {}).get("median_us")
        print("   %-16s ok=%s %s  %s" % (v.get("name"), v.get("ok"), med, (v.get("config") or "")[:90]))
PY
echo "== total $(( $(date +%s) - t0 )) s"
