#!/bin/bash
# Device call 47 for convolution (issue 28): the session's final build (6 and 8 stages for the fp16 wgmma kinds; a
# persistent grid of two blocks an SM only where two blocks' shared memory fits): gpu_conv fp16, every candidate on
# the awkward shapes.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 330 ./tests/gpu_conv.sh >$OUT/gconv_fp16.log 2>&1
echo "== gpu_conv fp16 (330 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed" $OUT/gconv_fp16.log | cut -c1-160 | tail -5
