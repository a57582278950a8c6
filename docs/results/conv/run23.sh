#!/bin/bash
# Device call 23 for convolution (issue 28): the build of run22 (warp-specialised, persistent fp16 wgmma kernel).
# conv_training and conv_inference_server in fp16 NHWC on fresh databases, to compare row by row with run19/run17
# (the first, synchronous wgmma kernel) and run21 (warp-specialised, not persistent).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for suite in training inference_server; do
	s=$(date +%s)
	timeout -s INT -k 10 285 ./dlbtune --op conv --prec fp16 --suite $suite --layout NHWC --db /tmp/$suite -v --csv >$OUT/$suite.csv 2>$OUT/$suite.err
	echo "== conv_$suite fp16 NHWC (285 s): exit $? in $(( $(date +%s) - s )) s"
	grep -E "^kernels|wrong|fault" $OUT/$suite.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -8
	gzip -f $OUT/$suite.err
done
