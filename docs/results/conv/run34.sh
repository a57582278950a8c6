#!/bin/bash
# Device call 34 for convolution (issue 28): run32's build again. gpu_conv fp16 with a longer limit (run32's ran
# past 230 s; run33, the same search by hand on a warm machine, took 31 s: every candidate verified) and
# with its stderr and timing kept; then conv_inference_server fp16 NHWC on a fresh database (compare with run23).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 300 sh -x ./tests/gpu_conv.sh >$OUT/gconv_fp16.log 2>&1
echo "== gpu_conv fp16 (300 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed| ok, " $OUT/gconv_fp16.log | cut -c1-160 | tail -20
s=$(date +%s)
timeout -s INT -k 10 270 ./dlbtune --op conv --prec fp16 --suite inference_server --layout NHWC --db /tmp/inference -v --csv >$OUT/inference_server.csv 2>$OUT/inference_server.err
echo "== conv_inference_server fp16 NHWC (270 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|wrong|fault" $OUT/inference_server.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -8
gzip -f $OUT/inference_server.err
