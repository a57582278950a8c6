#!/bin/bash
# Device call 39 for convolution (issue 28; run twice: the first found the accumulation error, NOTES item 57): fp32 as 3xTF32 on wgmma (KIND 1 and 2 of the fp32 space, on the
# split copies conv_split3 makes). gpu_conv fp32 (every candidate, 3xTF32 included, on the awkward rows in both
# layouts), then DeepBench's conv_training in fp32 NCHW, default search, against cuDNN's strict fp32.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
GPU_CONV_PRECS=fp32 DLB_REQUIRE_GPU=1 timeout -k 5 240 ./tests/gpu_conv.sh >$OUT/gconv_fp32.log 2>&1
echo "== gpu_conv fp32 (240 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|wrong" $OUT/gconv_fp32.log | cut -c1-160 | tail -20
s=$(date +%s)
timeout -s INT -k 10 300 ./dlbtune --op conv --prec fp32 --suite training --db /tmp/training -v --csv >$OUT/training.csv 2>$OUT/training.err
echo "== conv_training fp32 NCHW (300 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|wrong|fault" $OUT/training.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -8
tail -3 $OUT/training.err | cut -c1-200
gzip -f $OUT/training.err
