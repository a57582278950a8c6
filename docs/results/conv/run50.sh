#!/bin/bash
# Device call 50 for convolution (issue 28): run45's 8 rows (the worst fp16 NHWC rows and one large layer) with
# the whole fp16 space and conv_reduce, on a fresh database; then gpu_conv fp16 (every candidate verified on the
# awkward shapes, split-K variants included).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
timeout -s INT -k 10 200 ./dlbtune --op conv --prec fp16 --suite docs/results/conv/run45_rows.csv --layout NHWC --db /tmp/dbB -v --csv >$OUT/B.csv 2>$OUT/B.err
echo "== rows: exit $? in $(( $(date +%s) - s )) s"
grep -E "wrong|fault" $OUT/B.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
grep -E "^\[ *[0-9]+/" $OUT/B.err | cut -c1-200
gzip -f $OUT/B.err
s=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 370 ./tests/gpu_conv.sh >$OUT/gconv_fp16.log 2>&1
echo "== gpu_conv fp16 (370 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed" $OUT/gconv_fp16.log | cut -c1-160 | tail -5
