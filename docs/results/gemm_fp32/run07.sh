#!/bin/bash
# Device call 7 for issue 30, item 3 (its vendor half): cuBLAS in CUBLAS_COMPUTE_32F_FAST_TF32 as a labelled
# entry beside the strict fp32 baselines (never the vendor best), verified against TF32's tolerance, with its
# accuracy. tests/gpu_tune_cache.sh (now also checks the TF32 entry), then the accuracy shapes of run06 in fp32
# with every vendor entry's time and error.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
top_builddir=. top_srcdir=. timeout 150 sh tests/gpu_tune_cache.sh > $OUT/tune_cache.txt 2>&1; echo "gpu_tune_cache exit $?"
tail -1 $OUT/tune_cache.txt; grep FAIL $OUT/tune_cache.txt | head -5
printf 'm,n,k,a_t,b_t\n1024,16,128,0,0\n1024,16,4096,0,0\n1024,16,65536,0,0\n512,16,500000,0,0\n2048,2048,2048,0,0\n' > /tmp/acc.csv
timeout -s INT -k 10 100 ./dlbtune --op gemm --prec fp32 --suite /tmp/acc.csv --db /tmp/db7 --min-search 1 \
	2>&1 >/dev/null | grep "^\[" | cut -c1-200
./dlbtune export --format json --db /tmp/db7 2>/dev/null > $OUT/acc.json
python3 - $OUT/acc.json <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["records"]:
    e = r["best"].get("rel_err") or {}
    print("%sx%sx%s ours %.2f us, rel err max %s mean %s" % (r["m"], r["n"], r["k"], r["best"]["tuned"]["median_us"], e.get("max"), e.get("mean")))
    for v in r.get("vendor", []):
        if v.get("floor"): continue
        x = v.get("rel_err") or {}
        print("   %-20s ok=%-5s %9.2f us  rel err max %-9s mean %s" % (v["name"], v["ok"], (v.get("stats") or {}).get("median_us") or 0, x.get("max"), x.get("mean")))
PY
echo "== total $(( $(date +%s) - t0 )) s"
