#!/bin/bash
# Device call 19 for convolution (issue 28): conv_training fp16 NHWC with the wgmma kernel in the space, for
# what the call allows (the session's device time is nearly spent), to compare row by row with run10.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
s=$(date +%s)
timeout -s INT -k 10 530 ./dlbtune --op conv --prec fp16 --suite training --layout NHWC --db /tmp/t16 -v --csv >$OUT/train16.csv 2>$OUT/train16.err
echo "== conv_training fp16 NHWC (530 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels" $OUT/train16.err | cut -c1-220 | tail -3
