#!/bin/bash
# Device call 37 (issue 28, and the generic changes of the session): the final build (16d45d5, code of 8e5e89c).
# gpu_conv int8 (conv.c's launch code it shares with fp16 changed), gpu_faults and gpu_tune_cache (tune.c and
# kernels.c changed for --only).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
GPU_CONV_PRECS=int8 DLB_REQUIRE_GPU=1 timeout -k 5 330 ./tests/gpu_conv.sh >$OUT/gconv_int8.log 2>&1
echo "== gpu_conv int8 (330 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed" $OUT/gconv_int8.log | cut -c1-160 | tail -5
grep -c " ok, 0 wrong, 0 faults)" $OUT/gconv_int8.log
for t in gpu_faults gpu_tune_cache.sh; do
	s=$(date +%s)
	DLB_REQUIRE_GPU=1 timeout -k 5 120 ./tests/$t >$OUT/$t.log 2>&1
	echo "== $t: exit $? in $(( $(date +%s) - s )) s"
	tail -3 $OUT/$t.log | cut -c1-200
done
