#!/bin/bash
# Device call 6 for convolution (issue 28): DeepBench's conv_training (fp32 NCHW) again with the held stream
# (run05's harness), to replace run03's numbers, which included cuDNN's host time.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
s=$(date +%s)
timeout -s INT -k 10 300 ./dlbtune --op conv --suite training --db /tmp/c2 -v --csv >$OUT/train.csv 2>$OUT/train.err
echo "== conv_training fp32: exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|error|warning|geomean" $OUT/train.err | cut -c1-220
