#!/bin/bash
# Device call 44 for convolution (issue 28): the session's final build (after the review: 3xTF32's split
# copies allocated when a candidate first needs them, kernel_family only in families that name kernels).
# gpu_conv fp32, then conv_training fp32 NCHW again (run39 gave 1.007x: how much does it move?).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
GPU_CONV_PRECS=fp32 DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_conv.sh >$OUT/gconv_fp32.log 2>&1
echo "== gpu_conv fp32 (200 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed" $OUT/gconv_fp32.log | cut -c1-160 | tail -5
s=$(date +%s)
timeout -s INT -k 10 330 ./dlbtune --op conv --prec fp32 --suite training --db /tmp/training -v --csv >$OUT/training.csv 2>$OUT/training.err
echo "== conv_training fp32 NCHW (330 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|wrong|fault" $OUT/training.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
tail -n 2 $OUT/training.err | cut -c1-200
gzip -f $OUT/training.err
