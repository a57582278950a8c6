#!/bin/bash
# Device call 57 for convolution (issue 28), build 3a19030, right after run56 on the same machine (its kernel
# cache warm): gpu_conv fp16 (every candidate verified on the awkward shapes, the BN 32 ones included), then
# conv_inference_server fp16 NHWC on a fresh database for the rest of the call.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 400 ./tests/gpu_conv.sh >$OUT/gconv_fp16.log 2>&1
echo "== gpu_conv fp16 (400 s): exit $? in $(( $(date +%s) - t0 )) s"
grep -E "FAIL|passed|failed" $OUT/gconv_fp16.log | cut -c1-160 | tail -5
left=$(( 585 - ($(date +%s) - t0) ))
s=$(date +%s)
timeout -s INT -k 10 $left ./dlbtune --op conv --prec fp16 --layout NHWC --suite inference_server --db /tmp/dbI -v --csv >$OUT/inference_server.csv 2>$OUT/inference_server.err
echo "== conv_inference_server fp16 ($left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "^\[" $OUT/inference_server.err) rows"
grep -E "wrong|fault" $OUT/inference_server.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
gzip -f $OUT/inference_server.err $OUT/gconv_fp16.log
