#!/bin/bash
# Device call 15 for convolution (issue 28): the first int8 kernels (templates/conv_int8.cu: fp16's cp.async
# kernel in bytes, mma.sync m16n8k32 s8, C padded to 4) and cuDNN's int8 and fp16 entries. gpu_conv in int8
# (every candidate on the awkward shapes, exact), two single problems as a user runs them (NHWC; C = 3 padded),
# then gpu_conv in fp16 again (its to_nhwc moved to conv_common.cu).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
s=$(date +%s)
GPU_CONV_PRECS=int8 DLB_REQUIRE_GPU=1 timeout -k 5 230 ./tests/gpu_conv.sh >$OUT/gconv8.log 2>&1
rc=$?
echo "== gpu_conv int8: exit $rc in $(( $(date +%s) - s )) s"; grep -E "FAIL|passed|failed| ok, " $OUT/gconv8.log | cut -c1-160 | tail -20
s=$(date +%s)
timeout -s INT -k 5 70 ./dlbtune --op conv --prec int8 --layout NHWC --w 56 --h 56 --c 64 --n 1 --k 64 --s 3 --r 3 --pad-w 1 --pad-h 1 --db /tmp/c1 2>$OUT/one.err
echo "== one problem: exit $? in $(( $(date +%s) - s )) s"
timeout -s INT -k 5 40 ./dlbtune --op conv --prec int8 --layout NHWC --w 112 --h 112 --c 3 --n 2 --k 32 --s 3 --r 3 --pad-w 1 --pad-h 1 --db /tmp/c1 2>>$OUT/one.err
echo "== C=3: exit $?"
./dlbtune db show --db /tmp/c1 --op conv --prec int8 --layout NHWC --w 56 --h 56 --c 64 --n 1 --k 64 --s 3 --r 3 --pad-w 1 --pad-h 1 | head -30
s=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 240 ./tests/gpu_conv.sh >$OUT/gconv16.log 2>&1
rc2=$?
echo "== gpu_conv fp16: exit $rc2 in $(( $(date +%s) - s )) s"; grep -E "FAIL|passed|failed| ok, " $OUT/gconv16.log | cut -c1-160 | tail -16
test $rc = 0 && test $rc2 = 0 && echo "conv run15: gpu_conv int8 and fp16 passed"
