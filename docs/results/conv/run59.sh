#!/bin/bash
# Device call 59 for convolution (issue 28), run58's build, right after it: gpu_conv fp16 and fp32 (every
# candidate verified on the awkward shapes, now with a 1x1 stride-1 row that KIND 2 reads as a plain matrix),
# then conv_inference_server fp16 NHWC on a fresh database for the rest of the call.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
for p in fp16 fp32; do
	s=$(date +%s)
	GPU_CONV_PRECS=$p DLB_REQUIRE_GPU=1 timeout -k 5 330 ./tests/gpu_conv.sh >$OUT/gconv_$p.log 2>&1
	echo "== gpu_conv $p: exit $? in $(( $(date +%s) - s )) s"
	grep -E "FAIL|passed|failed" $OUT/gconv_$p.log | cut -c1-160 | tail -5
done
left=$(( 585 - ($(date +%s) - t0) ))
s=$(date +%s)
timeout -s INT -k 10 $left ./dlbtune --op conv --prec fp16 --layout NHWC --suite inference_server --db /tmp/dbI -v --csv >$OUT/inference_server.csv 2>$OUT/inference_server.err
echo "== conv_inference_server fp16 ($left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "^\[" $OUT/inference_server.err) rows"
grep -E "wrong|fault" $OUT/inference_server.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
gzip -f $OUT/*.err $OUT/*.log
