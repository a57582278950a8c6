#!/bin/bash
# Device call 43 for convolution (issue 28): the session's final build (conv_common.cu's NCHW-to-NHWC walk now
# shared by to_nhwc and conv_split3). gpu_conv in fp16 (NCHW8 rows copy x and w through the walk).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for prec in fp16; do
	s=$(date +%s)
	GPU_CONV_PRECS=$prec DLB_REQUIRE_GPU=1 timeout -k 5 330 ./tests/gpu_conv.sh >$OUT/gconv_$prec.log 2>&1
	echo "== gpu_conv $prec (330 s): exit $? in $(( $(date +%s) - s )) s"
	grep -E "FAIL|passed|failed" $OUT/gconv_$prec.log | cut -c1-160 | tail -5
done
