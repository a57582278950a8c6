#!/bin/bash
# Device call 52 for convolution (issue 28): gpu_conv int8 on the conv_reduce build (run51's call cut it at 300 s
# while it compiled): every int8 candidate exact on the awkward shapes, split-K included.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
GPU_CONV_PRECS=int8 DLB_REQUIRE_GPU=1 timeout -k 5 570 ./tests/gpu_conv.sh >$OUT/gconv_int8.log 2>&1
echo "== gpu_conv int8 (570 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed" $OUT/gconv_int8.log | cut -c1-160 | tail -5
