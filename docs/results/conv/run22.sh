#!/bin/bash
# Device call 22 for convolution (issue 28): fp16 KIND=1 now also persistent without split-K (blocks take tiles
# in turn; the producer fills the next tile's stages while the consumers store this one). gpu_conv in fp16:
# every candidate (wgmma included) verified on the awkward shapes, split-K and NCHW output included.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 570 ./tests/gpu_conv.sh >$OUT/gconv16.log 2>&1
rc=$?
echo "== gpu_conv fp16: exit $rc in $(( $(date +%s) - s )) s"; grep -E "FAIL|passed|failed| ok, " $OUT/gconv16.log | cut -c1-160 | tail -16
test $rc = 0 && echo "conv run22: gpu_conv fp16 passed"
