#!/bin/bash
# Device call 26 for convolution (issue 28): gpu_conv in int8 (never run on the build whose split-K finish sums
# 16 elements at a time) and fp16 (last run on run22's build) on the build of commit 78ac51c.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for p in int8:330 fp16:220; do
	prec=${p%%:*} lim=${p##*:}
	s=$(date +%s)
	GPU_CONV_PRECS=$prec DLB_REQUIRE_GPU=1 timeout -k 5 $lim ./tests/gpu_conv.sh >$OUT/gconv_$prec.log 2>&1
	rc=$?
	echo "== gpu_conv $prec ($lim s): exit $rc in $(( $(date +%s) - s )) s"
	grep -E "FAIL|passed|failed" $OUT/gconv_$prec.log | cut -c1-160 | tail -6
	grep -c " ok, 0 wrong, 0 faults)" $OUT/gconv_$prec.log
done
