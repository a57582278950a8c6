#!/bin/bash
# Device call 20 for convolution (issue 28): the fp32 kernels share conv_common.cu, which this session changed
# (split-K's finish, the NCHW-to-NHWC copy moved there): gpu_conv in fp32 on the final build.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
s=$(date +%s)
GPU_CONV_PRECS=fp32 DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_conv.sh >$OUT/gconv32.log 2>&1
rc=$?
echo "== gpu_conv fp32: exit $rc in $(( $(date +%s) - s )) s"; grep -E "FAIL|passed|failed| ok, " $OUT/gconv32.log | cut -c1-160 | tail -16
