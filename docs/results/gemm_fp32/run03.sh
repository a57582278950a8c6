#!/bin/bash
# Device call 3 for issue 30: the skinny family as committed (BM up to 256, L2PF tunable: run02 measured both).
# Every skinny candidate verified on every fp32 shape of tests/gpu_gemm_verify, all layouts and splits; a
# sample of the tiles; the fault test; then DeepBench's rows with N <= 16 tuned against cuBLAS / cuBLASLt with
# the full fp32 space (inference_server: N = 1, 2, 4; training: N = 8, 16), default search but --min-search 2.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
export DLB_REQUIRE_GPU=1 DLB_VERIFY_CACHE=/tmp/vdb
DLB_VERIFY_ONLY="KIND=2" tests/gpu_gemm_verify fp32 > $OUT/verify_skinny.txt 2>&1; echo "skinny verify exit $?"
grep -E "^(WRONG|ERROR)" $OUT/verify_skinny.txt | head -5; grep "runs over" $OUT/verify_skinny.txt
DLB_VERIFY_EVERY=8 tests/gpu_gemm_verify fp32 > $OUT/verify_sample.txt 2>&1; echo "sample verify exit $?"
grep -E "^(WRONG|ERROR)" $OUT/verify_sample.txt | head -5; grep "runs over" $OUT/verify_sample.txt
echo "== verify $(( $(date +%s) - t0 )) s"
tests/gpu_faults > $OUT/faults.txt 2>&1; echo "gpu_faults exit $?"; tail -1 $OUT/faults.txt
awk -F, 'NR == 1 || $2 <= 4' src/ops/gemm/suites/gemm_inference_server.csv > /tmp/inf.csv
awk -F, 'NR == 1 || $2 <= 16' src/ops/gemm/suites/gemm_training.csv > /tmp/tr.csv
for s in inf tr; do
	timeout -s INT -k 10 250 ./dlbtune --op gemm --prec fp32 --suite /tmp/$s.csv --db /tmp/db3 --min-search 2 \
		--csv > $OUT/$s.csv 2> $OUT/$s.err; echo "tune $s exit $?"
	grep "^\[" $OUT/$s.err | cut -c1-200
	python3 - $OUT/$s.csv <<'PY'
import csv, math, sys
sp = [float(r["paired_speedup"]) for r in csv.DictReader(open(sys.argv[1])) if r.get("paired_speedup")]
if sp: print("paired geomean %.3f over %d rows, min %.3f, max %.3f" % (math.exp(sum(map(math.log, sp)) / len(sp)), len(sp), min(sp), max(sp)))
PY
done
./dlbtune export --format md --db /tmp/db3 > $OUT/n16.md 2>/dev/null
tar czf $OUT/db3.tgz -C /tmp db3 2>/dev/null
echo "== total $(( $(date +%s) - t0 )) s"
