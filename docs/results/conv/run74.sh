#!/bin/bash
# Device call 74 for convolution (issue 28): fp32 KIND 3 (the direct kernel in 3xTF32, new in 53364a2) on the
# device for the first time: gpu_conv fp32 (all 20 awkward rows, then KIND 3 alone on the C·R·S <= 512 rows, every
# candidate verified), then conv_training fp32 NCHW on a fresh database, against run72 (1.134×, few-tap rows 0.628×).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
GPU_CONV_PRECS=fp32 DLB_REQUIRE_GPU=1 timeout -k 5 250 ./tests/gpu_conv.sh >$OUT/gconv_fp32.log 2>&1
echo "== gpu_conv fp32 (250 s): exit $? in $(( $(date +%s) - t0 )) s"
grep -E "FAIL|passed|failed|KIND=3" $OUT/gconv_fp32.log | cut -c1-160 | tail -6
gzip -f $OUT/gconv_fp32.log
left=$(( 575 - ($(date +%s) - t0) ))
s=$(date +%s)
timeout -s INT -k 10 $left ./dlbtune --op conv --suite training --db /tmp/dbF -v --csv >$OUT/training_fp32.csv 2>$OUT/training_fp32.err
echo "== conv_training fp32 NCHW ($left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "^\[" $OUT/training_fp32.err) rows"
grep -E "wrong|fault" $OUT/*.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
gzip -f $OUT/*.err
