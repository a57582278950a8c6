#!/bin/bash
# Device call 13 for convolution (issue 28): run12's gpu_conv ran out of its time limit in fp16 (the NCHW8
# specialisation adds a compile of every configuration). gpu_conv in fp16 alone, with more time.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
s=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 280 ./tests/gpu_conv.sh >/tmp/g.log 2>&1
rc=$?
echo "== gpu_conv fp16: exit $rc in $(( $(date +%s) - s )) s"; grep -E "FAIL|passed|failed| ok, " /tmp/g.log | cut -c1-160 | tail -16
test $rc = 0 && echo "conv run13: all passed"
