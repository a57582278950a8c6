#!/bin/bash
# Device call 27 for convolution (issue 28): fp16 KIND=2, wgmma fed by the copy engine (an im2col tensor map of
# x, a tiled one of w; NOTES item 54). gpu_conv fp16 (two new awkward rows: 128 channels, stride 2, dilation 2,
# 72 filters), then conv_training fp16 NHWC on a fresh database, to compare row by row with run23.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
which ncu compute-sanitizer
s=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 230 ./tests/gpu_conv.sh >$OUT/gconv_fp16.log 2>&1
echo "== gpu_conv fp16 (230 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed| ok, " $OUT/gconv_fp16.log | cut -c1-160 | tail -20
s=$(date +%s)
timeout -s INT -k 10 300 ./dlbtune --op conv --prec fp16 --suite training --layout NHWC --db /tmp/training -v --csv >$OUT/training.csv 2>$OUT/training.err
echo "== conv_training fp16 NHWC (300 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|wrong|fault" $OUT/training.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -8
gzip -f $OUT/training.err
