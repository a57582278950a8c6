#!/bin/bash
# Device call 24 for issue 30: the GPU tests this session's changes could touch besides 3xTF32's own (runs 21,
# 22): gpu_faults (its fault candidates now name ASPLIT), and gpu_gemm_verify's fp32 part over every 4th
# configuration of each family (DLB_VERIFY_EVERY=4), all 14 awkward shapes x 4 layouts. First try
# (logs/run24/first_try.txt): gpu_faults failed: its test template had no split3, which the op looks up
# since the 3xTF32 family came (an earlier session), so the fault candidates never loaded; fixed.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_faults >$OUT/faults.log 2>&1
echo "== gpu_faults: exit $? in $(( $(date +%s) - t0 )) s"
tail -3 $OUT/faults.log
t1=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_EVERY=4 timeout -k 5 300 ./tests/gpu_gemm_verify fp32 >$OUT/verify.log 2>&1
echo "== gpu_gemm_verify fp32, every 4th: exit $? in $(( $(date +%s) - t1 )) s"
grep -E "wrong|refereed|self-test|FAIL" $OUT/verify.log | tail -6 | cut -c1-200
gzip $OUT/*.log
echo "== total $(( $(date +%s) - t0 )) s"
