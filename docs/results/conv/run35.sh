#!/bin/bash
# Device call 35 for convolution (issue 28): fp16 with C not a multiple of 8 now runs the cp.async and wgmma
# kernels on copies with the filter's width folded into the channels (C' = S·C rounded up to 8, a filter one
# column wide; kernel unfold_w) instead of copies with C rounded up to 8 (run32). gpu_conv fp16 (its awkward rows
# have C = 1, 3 and 5 in both layouts), then conv_training fp16 NHWC on a fresh database (compare with run32).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 300 ./tests/gpu_conv.sh >$OUT/gconv_fp16.log 2>&1
echo "== gpu_conv fp16 (300 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed| ok, " $OUT/gconv_fp16.log | cut -c1-160 | tail -20
s=$(date +%s)
timeout -s INT -k 10 270 ./dlbtune --op conv --prec fp16 --suite training --layout NHWC --db /tmp/training -v --csv >$OUT/training.csv 2>$OUT/training.err
echo "== conv_training fp16 NHWC (270 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|wrong|fault" $OUT/training.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -8
gzip -f $OUT/training.err
