#!/bin/bash
# Device call 16 for convolution (issue 28): run15's gpu_conv int8 ran out of its 230 s while compiling (all four
# int8 specialisations, 1440 cubins). Again with 450 s; then conv_inference_server in int8, NHWC (cuDNN's int8
# layout), into /tmp/i8db, continued by the next call (rows already in the database are not measured again).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
s=$(date +%s)
GPU_CONV_PRECS=int8 DLB_REQUIRE_GPU=1 timeout -k 5 450 ./tests/gpu_conv.sh >$OUT/gconv8.log 2>&1
rc=$?
echo "== gpu_conv int8: exit $rc in $(( $(date +%s) - s )) s"; grep -E "FAIL|passed|failed| ok, " $OUT/gconv8.log | cut -c1-160 | tail -20
left=$(( 585 - ($(date +%s) - s) ))
s=$(date +%s)
timeout -s INT -k 10 $left ./dlbtune --op conv --prec int8 --suite inference_server --layout NHWC --db /tmp/i8db -v --csv >$OUT/inf8a.csv 2>$OUT/inf8a.err
echo "== conv_inference_server int8 NHWC ($left s): exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|rows" $OUT/inf8a.err | cut -c1-220 | tail -5
test $rc = 0 && echo "conv run16: gpu_conv int8 passed"
