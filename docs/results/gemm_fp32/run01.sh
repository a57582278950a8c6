#!/bin/bash
# NOTE: run with the family as first built (BM <= 128, A read by __ldg; no L2PF): the numbers in logs/run01.
# Device call 1 for issue 30: the fp32 skinny family (KIND 2, N <= 16). Every skinny candidate verified on
# every fp32 shape of tests/gpu_gemm_verify in all four layouts with every split, a sample of the tiles, the
# fault test (its candidates name the new parameters), then DeepBench's inference_server rows with N <= 4
# tuned against cuBLAS / cuBLASLt (default search, --min-search 2).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
export DLB_REQUIRE_GPU=1 DLB_VERIFY_CACHE=/tmp/vdb
DLB_VERIFY_ONLY="KIND=2" tests/gpu_gemm_verify fp32 > $OUT/verify_skinny.txt 2>&1; echo "skinny verify exit $?"
grep -E "^(WRONG|ERROR)" $OUT/verify_skinny.txt | head -5; tail -1 $OUT/verify_skinny.txt
DLB_VERIFY_EVERY=8 tests/gpu_gemm_verify fp32 > $OUT/verify_sample.txt 2>&1; echo "sample verify exit $?"
grep -E "^(WRONG|ERROR)" $OUT/verify_sample.txt | head -5; tail -1 $OUT/verify_sample.txt
echo "== verify $(( $(date +%s) - t0 )) s"
tests/gpu_faults > $OUT/faults.txt 2>&1; echo "gpu_faults exit $?"; tail -2 $OUT/faults.txt
awk -F, 'NR == 1 || $2 <= 4' src/ops/gemm/suites/gemm_inference_server.csv > /tmp/inf_n4.csv
echo "== $(($(wc -l < /tmp/inf_n4.csv) - 1)) rows; tuning"
timeout -s INT -k 10 380 ./dlbtune --op gemm --prec fp32 --suite /tmp/inf_n4.csv --db /tmp/db1 --min-search 2 \
	--csv > $OUT/inf_n4.csv 2> $OUT/inf_n4.err; echo "tune exit $?"
tail -3 $OUT/inf_n4.err
./dlbtune export --format md --db /tmp/db1 > $OUT/inf_n4.md 2>/dev/null
python3 - $OUT/inf_n4.csv <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sp = []
for r in rows:
    s = r.get("paired_speedup") or ""
    try: v = float(s)
    except ValueError: v = None
    if v: sp.append(v)
    print(r["m"], r["n"], r["k"], r.get("best_config", r.get("config", ""))[:60], r.get("tuned_us"), r.get("paired_speedup"))
if sp: print("paired geomean %.3f over %d rows, min %.3f" % (math.exp(sum(map(math.log, sp)) / len(sp)), len(sp), min(sp)))
PY
tar czf $OUT/db1.tgz -C /tmp db1 2>/dev/null
echo "== total $(( $(date +%s) - t0 )) s"
