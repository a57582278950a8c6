#!/bin/bash
# Device call 14 for convolution (issue 28): run12's worst NCHW8 rows were 1x1 layers with large filters,
# where copying w (one 32-element tile a block when R·S = 1) cost more than the convolution. Now a 1x1 filter
# is not copied (KCRS is KRSC) and small R·S is copied one element a thread. gpu_conv in fp16; the first
# 150 s of conv_inference_server fp16 NCHW (compare row by row with run12).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
s=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 150 ./tests/gpu_conv.sh >/tmp/g.log 2>&1
rc=$?
echo "== gpu_conv fp16: exit $rc in $(( $(date +%s) - s )) s"; grep -E "FAIL|passed|failed| ok, " /tmp/g.log | cut -c1-160 | tail -16
s=$(date +%s)
timeout -s INT -k 10 150 ./dlbtune --op conv --prec fp16 --suite inference_server --db /tmp/c1 -v --csv >$OUT/inf16.csv 2>$OUT/inf16.err
echo "== conv_inference_server fp16 NCHW (150 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels" $OUT/inf16.err | cut -c1-220
test $rc = 0 && echo "conv run14: gpu_conv passed"
