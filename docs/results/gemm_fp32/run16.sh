#!/bin/bash
# Device call 16 for issue 30: the verification's referee (dlb_gemm_referee, NOTES item 84). run15 found that
# at 4096x7000x4096 TN the "wrong" 3xTF32 runs were right: cuBLAS's fp32 reference was off the exact sum by
# 0.99 tol, ours by 0.10 tol. Now a near miss is judged against the exact sum in double.
# 1. run15's shape and candidates again, and 8448x24000x2816 (run13's other failing shape): 0 wrong, the
#    refereed runs printed.
# 2. gpu_gemm_verify's sample of every precision (the referee's self-test runs on the first fp32 run).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
export DLB_REQUIRE_GPU=1
for shape in 4096x7000x4096 8448x24000x2816; do
	DLB_VERIFY_SHAPE=$shape DLB_VERIFY_ONLY="KIND=1 KS=1 KU=4 L2PF=0 WGS=2 STAGES=4" DLB_VERIFY_EXPLAIN=1 \
		timeout 200 tests/gpu_gemm_verify fp32 2>&1 | grep -vE "^ok" | cut -c1-300 | tail -14
	echo "== $shape $(( $(date +%s) - t0 )) s"
done
DLB_VERIFY_EVERY=25 DLB_VERIFY_SHAPES=6 timeout 200 tests/gpu_gemm_verify 2>&1 | grep -E "^(WRONG|ERROR|FAIL|setup|refereed)|runs over|referee" | head -16
echo "== sample verify $(( $(date +%s) - t0 )) s"
