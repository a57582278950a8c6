#!/bin/bash
# Device call 36 for convolution (issue 28): the build of commit 8e5e89c (run35's). conv_inference_server fp16 NHWC
# on a fresh database, the whole suite this time (run34 stopped at 98 of 107 rows), then gpu_conv fp32 (the
# launch code fp32 shares with fp16 changed: the kernel's shape and arguments).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
timeout -s INT -k 10 390 ./dlbtune --op conv --prec fp16 --suite inference_server --layout NHWC --db /tmp/inference -v --csv >$OUT/inference_server.csv 2>$OUT/inference_server.err
echo "== conv_inference_server fp16 NHWC (390 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|wrong|fault" $OUT/inference_server.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -8
gzip -f $OUT/inference_server.err
s=$(date +%s)
GPU_CONV_PRECS=fp32 DLB_REQUIRE_GPU=1 timeout -k 5 150 ./tests/gpu_conv.sh >$OUT/gconv_fp32.log 2>&1
echo "== gpu_conv fp32 (150 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed" $OUT/gconv_fp32.log | cut -c1-160 | tail -5
