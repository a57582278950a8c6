#!/bin/bash
# Device call 67 for convolution (issue 28), build with fp16's direct kernel (KIND 3, run66's): gpu_conv fp16
# (every candidate verified on the 20 awkward rows, then KIND 3 alone on the 16 it applies to), then
# conv_training fp16 NHWC, all 94 rows, default search, fresh database, for the rest of the call.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 400 ./tests/gpu_conv.sh >$OUT/gconv_fp16.log 2>&1
echo "== gpu_conv fp16 (400 s): exit $? in $(( $(date +%s) - t0 )) s"
grep -E "FAIL|KIND=3 alone|passed|failed" $OUT/gconv_fp16.log | cut -c1-160 | tail -6
left=$(( 585 - ($(date +%s) - t0) ))
s=$(date +%s)
timeout -s INT -k 10 $left ./dlbtune --op conv --prec fp16 --layout NHWC --suite training --db /tmp/dbT -v --csv >$OUT/training.csv 2>$OUT/training.err
echo "== conv_training fp16 ($left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "^\[" $OUT/training.err) rows"
grep -E "wrong|fault" $OUT/training.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
gzip -f $OUT/training.err $OUT/gconv_fp16.log
