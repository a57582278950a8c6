#!/bin/bash
# Device call 18 for convolution (issue 28): split-K's finish summed element by element with a rolled loop
# (one trip to L2 per element and split); now a thread's elements side by side, split after split. gpu_conv in
# fp16 (every candidate, wgmma included, on the awkward shapes: run17's ran out of time while compiling); then
# conv_inference_server fp16 NHWC for what the call has left, to compare row by row with run17.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
s=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 380 ./tests/gpu_conv.sh >$OUT/gconv16.log 2>&1
rc=$?
echo "== gpu_conv fp16: exit $rc in $(( $(date +%s) - s )) s"; grep -E "FAIL|passed|failed| ok, " $OUT/gconv16.log | cut -c1-160 | tail -16
left=$(( 585 - ($(date +%s) - s) ))
s=$(date +%s)
timeout -s INT -k 10 $left ./dlbtune --op conv --prec fp16 --suite inference_server --layout NHWC --db /tmp/h16b -v --csv >$OUT/inf16b.csv 2>$OUT/inf16b.err
echo "== conv_inference_server fp16 NHWC ($left s): exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels" $OUT/inf16b.err | cut -c1-220 | tail -3
test $rc = 0 && echo "conv run18: gpu_conv fp16 passed"
