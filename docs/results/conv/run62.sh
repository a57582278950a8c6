#!/bin/bash
# Device call 62 for convolution (issue 28), run61's build, right after it: conv_training fp16 NHWC, then
# conv_inference_server fp16 NHWC for the rest of the call, each on a fresh database.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
timeout -s INT -k 10 340 ./dlbtune --op conv --prec fp16 --layout NHWC --suite training --db /tmp/dbT -v --csv >$OUT/training.csv 2>$OUT/training.err
echo "== conv_training fp16 (340 s): exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/training.err) rows"
grep -E "wrong|fault" $OUT/training.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
left=$(( 560 - ($(date +%s) - t0) ))
s=$(date +%s)
timeout -s INT -k 10 $left ./dlbtune --op conv --prec fp16 --layout NHWC --suite inference_server --db /tmp/dbI -v --csv >$OUT/inference_server.csv 2>$OUT/inference_server.err
echo "== conv_inference_server fp16 ($left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "^\[" $OUT/inference_server.err) rows"
grep -E "wrong|fault" $OUT/inference_server.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
gzip -f $OUT/*.err
