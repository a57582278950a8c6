#!/bin/bash
# Device call 73 for convolution (issue 28), run72's build on run72's machine: gpu_conv in fp32 and int8 on the
# 20 awkward rows (three new this session for fp16's direct kernel): every candidate verified, int8 exactly.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
for prec in fp32 int8; do
	t0=$(date +%s)
	GPU_CONV_PRECS=$prec DLB_REQUIRE_GPU=1 timeout -k 5 $([ $prec = fp32 ] && echo 180 || echo 380) ./tests/gpu_conv.sh >$OUT/gconv_$prec.log 2>&1
	echo "== gpu_conv $prec: exit $? in $(( $(date +%s) - t0 )) s"
	grep -E "FAIL|passed|failed" $OUT/gconv_$prec.log | cut -c1-160 | tail -4
	gzip -f $OUT/gconv_$prec.log
done
