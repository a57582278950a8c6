#!/bin/bash
# Device call 45 for convolution (issue 28): fp16 wgmma with 6 and 8 stages (NOTES item 58). The worst fp16 NHWC
# rows of runs 35-36 and one large layer, tuned twice on fresh databases in this call: A with the old space
# (--only STAGES 2-4), B with the whole new one. Then gpu_conv fp16 (every candidate verified on awkward shapes).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rows=docs/results/conv/run45_rows.csv
for ab in A B; do
	s=$(date +%s)
	[ $ab = A ] && only=(--only "STAGES=2|STAGES=3|STAGES=4") || only=()
	timeout -s INT -k 10 200 ./dlbtune --op conv --prec fp16 --suite $rows --layout NHWC --db /tmp/db$ab "${only[@]}" -v --csv >$OUT/$ab.csv 2>$OUT/$ab.err
	echo "== $ab: exit $? in $(( $(date +%s) - s )) s"
	grep -E "wrong|fault" $OUT/$ab.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
	gzip -f $OUT/$ab.err
done
s=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 280 ./tests/gpu_conv.sh >$OUT/gconv_fp16.log 2>&1
echo "== gpu_conv fp16 (280 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed" $OUT/gconv_fp16.log | cut -c1-160 | tail -5
