#!/bin/bash
# Device call 13 for issue 30: run12's three TN rows with wrong candidates (4096x7000x4096, 8448x24000x2816,
# 8448x48000x2816 TN: 9 of 21 evaluated wrong at 8448x24000x2816; NN twins and 7680x48000x2560 TN clean).
# Which candidates: every 3xTF32 one on 4096x7000x4096 in all four layouts, then a sample of the FFMA tiles.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
export DLB_REQUIRE_GPU=1 DLB_VERIFY_SHAPE=4096x7000x4096
DLB_VERIFY_ONLY="KIND=1" timeout 150 tests/gpu_gemm_verify fp32 2>&1 | grep -vE "^ok" | cut -c1-240 | tail -14
echo "== 3xTF32 $(( $(date +%s) - t0 )) s"
DLB_VERIFY_ONLY="KIND=0" DLB_VERIFY_EVERY=6 timeout 150 tests/gpu_gemm_verify fp32 2>&1 | grep -vE "^ok" | cut -c1-240 | tail -14
echo "== total $(( $(date +%s) - t0 )) s"
