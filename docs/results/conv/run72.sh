#!/bin/bash
# Device call 72 for convolution (issue 28): the issue's other two suites as run54 ran them, on this session's build
# (KIND 3 is fp16's; these precisions' kernels are as run54-62 had them, the 1x1 specialisations of 3xTF32 new
# since run54): conv_training fp32 NCHW (FMA and 3xTF32 against cuDNN's strict fp32) and conv_inference_server
# int8 NHWC, fresh
# databases, each interrupted at its limit if need be.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
timeout -s INT -k 10 220 ./dlbtune --op conv --suite training --db /tmp/dbF -v --csv >$OUT/training_fp32.csv 2>$OUT/training_fp32.err
echo "== conv_training fp32 NCHW (220 s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "^\[" $OUT/training_fp32.err) rows"
left=$(( 570 - ($(date +%s) - s) ))
s=$(date +%s)
timeout -s INT -k 10 $left ./dlbtune --op conv --prec int8 --layout NHWC --suite inference_server --db /tmp/dbQ -v --csv >$OUT/inference_int8.csv 2>$OUT/inference_int8.err
echo "== conv_inference_server int8 NHWC ($left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "^\[" $OUT/inference_int8.err) rows"
grep -E "wrong|fault" $OUT/*.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
gzip -f $OUT/*.err
