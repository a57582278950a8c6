#!/bin/bash
# Device call 17 for convolution (issue 28): the fp16 wgmma kernel (KIND=1 in templates/conv_fp16.cu: the
# cp.async stages in the 128-byte swizzle feeding m64nBNk16 wgmmas, sm_90a, C % 8 == 0). gpu_conv in fp16 (its
# NHWC8/NCHW8 rows verify every wgmma candidate, split-K and NCHW output included); then conv_inference_server
# fp16 NHWC into /tmp/h16 (continued by the next call), to compare with run10 (0.69x, mma.sync only).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
s=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 270 ./tests/gpu_conv.sh >$OUT/gconv16.log 2>&1
rc=$?
echo "== gpu_conv fp16: exit $rc in $(( $(date +%s) - s )) s"; grep -E "FAIL|passed|failed| ok, " $OUT/gconv16.log | cut -c1-160 | tail -16
left=$(( 585 - ($(date +%s) - s) ))
s=$(date +%s)
timeout -s INT -k 10 $left ./dlbtune --op conv --prec fp16 --suite inference_server --layout NHWC --db /tmp/h16 -v --csv >$OUT/inf16a.csv 2>$OUT/inf16a.err
echo "== conv_inference_server fp16 NHWC ($left s): exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels" $OUT/inf16a.err | cut -c1-220 | tail -3
test $rc = 0 && echo "conv run17: gpu_conv fp16 passed"
