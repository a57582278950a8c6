#!/bin/bash
# Device call 33 for convolution (issue 28): run32's gpu_conv fp16 ran past its 230 s (136 s in run27). The same
# search as the test (tests/conv_awkward.csv, exhaustive, one sample each) with its error stream kept, to see
# which rows take the time and whether any candidate hangs, faults or computes wrong.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
timeout -s INT -k 10 420 ./dlbtune --op conv --suite tests/conv_awkward.csv --prec fp16 --strategy exhaustive --fixed-samples 1 \
	--db /tmp/aw --csv -v >$OUT/awkward.csv 2>$OUT/awkward.err
echo "== awkward fp16 exhaustive: exit $? in $(( $(date +%s) - s )) s"
grep -E "^\[|ok, .* wrong|restart|hang|fault" $OUT/awkward.err | cut -c1-200 | tail -40
