#!/bin/bash
# Device call 15 for issue 30 (ran 2026-11-27 on GPU 0 of nvidia-h200-x4, 74 s; logs/run15): the checks of
# the CPU-only commits a2eec4a and 7a1a8e2, and run13's defect explained.
# 1. 4096x7000x4096 with DLB_VERIFY_EXPLAIN=1: for each wrong 3xTF32 run, the worst element recomputed in
#    double, so the line says whether our value or cuBLAS's reference is off there.
# 2. gpu_gemm_verify on a sample of every precision: the reference spot checks now read through
#    dlb_gemm_read_k (fp16 and int8 too).
# 3. gpu_tune_cache.sh: a restricted search (--fp32-math ffma) stored under its only= keys and answered.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
export DLB_REQUIRE_GPU=1
DLB_VERIFY_SHAPE=4096x7000x4096 DLB_VERIFY_ONLY="KIND=1 KS=1 KU=4 L2PF=0 WGS=2 STAGES=4" DLB_VERIFY_EXPLAIN=1 \
	timeout 120 tests/gpu_gemm_verify fp32 2>&1 | grep -vE "^ok" | cut -c1-260 | tail -12
echo "== explain $(( $(date +%s) - t0 )) s"
DLB_VERIFY_EVERY=25 DLB_VERIFY_SHAPES=6 timeout 200 tests/gpu_gemm_verify 2>&1 | grep -E "^(WRONG|ERROR|setup)|runs over" | head -12
echo "== sample verify $(( $(date +%s) - t0 )) s"
top_srcdir=. top_builddir=. timeout 240 sh tests/gpu_tune_cache.sh > $OUT/tune_cache.txt 2>&1; echo "gpu_tune_cache exit $?"
tail -4 $OUT/tune_cache.txt
echo "== total $(( $(date +%s) - t0 )) s"
