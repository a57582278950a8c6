#!/bin/bash
# Device call 25 for convolution (issue 28): the session's final build. conv_common.cu changed under the fp32 and
# int8 kernels (split-K's finish 16 elements at a time, one pixel decoder): gpu_conv in fp32 and int8, for what
# the session's device time allows.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
for p in fp32:80 int8:150; do
	prec=${p%%:*} lim=${p##*:}
	s=$(date +%s)
	GPU_CONV_PRECS=$prec DLB_REQUIRE_GPU=1 timeout -k 5 $lim ./tests/gpu_conv.sh >$OUT/gconv_$prec.log 2>&1
	rc=$?
	echo "== gpu_conv $prec ($lim s): exit $rc in $(( $(date +%s) - s )) s"
	grep -E "FAIL|passed|failed" $OUT/gconv_$prec.log | cut -c1-160 | tail -6
	grep -c " ok, 0 wrong, 0 faults)" $OUT/gconv_$prec.log
done
