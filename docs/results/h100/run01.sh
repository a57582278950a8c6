#!/bin/bash
# Device call 1 (nvidia-h100-x1): the GPU, then gpu_gemm_verify on the tensor-core precisions.
. .gpu/env.sh
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,power.limit,driver_version --format=csv
./dlbtune --version; ./dlbtune devices
export DLB_REQUIRE_GPU=1 top_builddir=. top_srcdir=.
for p in ${PRECS:-fp16}; do
  s=$(date +%s)
  timeout ${LIMIT:-540} ./tests/gpu_gemm_verify $p > $OUT/verify_$p.log 2>&1; echo "gpu_gemm_verify $p: exit $? in $(( $(date +%s) - s )) s"
  tail -4 $OUT/verify_$p.log
done
