#!/bin/bash
# Device call 62 for convolution (issue 28), run61's build (551d801), on run61's machine while its kernel cache
# was warm. run61's gpu_conv fp16 was cut at 330 s while compiling, and its call returned only its first 8
# files (the A/B), so this call reran gpu_conv fp16 and then conv_training fp16 NHWC (62a); a third call on the
# same machine ran conv_inference_server fp16 NHWC (62b). Both were typed as one command line each; this is
# them, in order.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
# 62a
t0=$(date +%s); GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 420 ./tests/gpu_conv.sh >$OUT/gconv_fp16.log 2>&1; echo "== gpu_conv fp16: exit $? in $(( $(date +%s) - t0 )) s"; grep -E "FAIL|passed|failed" $OUT/gconv_fp16.log | cut -c1-160 | tail -5; left=$(( 570 - ($(date +%s) - t0) )); s=$(date +%s); timeout -s INT -k 10 $left ./dlbtune --op conv --prec fp16 --layout NHWC --suite training --db /tmp/dbT -v --csv >$OUT/training.csv 2>$OUT/training.err; echo "== training ($left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "^\[" $OUT/training.err) rows"; gzip -f $OUT/training.err $OUT/gconv_fp16.log
# 62b
s=$(date +%s); timeout -s INT -k 10 420 ./dlbtune --op conv --prec fp16 --layout NHWC --suite inference_server --db /tmp/dbI -v --csv >$OUT/inference_server.csv 2>$OUT/inference_server.err; echo "== inference (420 s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "^\[" $OUT/inference_server.err) rows"; gzip -f $OUT/inference_server.err
