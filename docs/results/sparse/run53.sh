#!/bin/bash
# Device call 53, 2026-11-28, two issues in one call. (1) Issue 30: gpu_gemm_verify fp32 for every KIND 0
# candidate, after db3fc57 (whole tiles with unaligned operands now load without bounds checks; run37 forgot to
# carry the test binary). (2) Issue 29: DeepBench's sparse suite in fp16 and in fp32 with this build (KIND 5's
# entry prefetch, 6fd4b43; the paired cuSPARSE path fixed in 517e61e and 0f4df32), default search, fresh
# databases: the first fp32 suite on an H200 with every row paired after the fix (run45 was an H100).
# Prediction: fp16 from 1.802x to about 1.89x (the 12 wide rows gained 9.6% in run52); fp32 near 1.66x.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY="KIND=0" timeout -k 5 200 ./tests/gpu_gemm_verify fp32 >$OUT/verify.log 2>&1
echo "== gpu_gemm_verify fp32, KIND=0: exit $? at $(( $(date +%s) - t0 )) s"
grep -E "wrong|passed|failed" $OUT/verify.log | tail -4
for p in fp16 fp32; do
	timeout -s INT -k 10 190 ./dlbtune --op spmm --prec $p --db /tmp/db_$p --csv >$OUT/suite_$p.csv 2>$OUT/suite_$p.err
	echo "== sparse suite $p: exit $? at $(( $(date +%s) - t0 )) s"
	python3 docs/results/sparse/table.py $OUT/suite_$p.csv | grep -E "geomean|^- "
done
