#!/bin/bash
# Device call 68 for convolution (issue 28), run67's build on run67's machine, right after it: gpu_conv fp16
# again (run67's was cut at 400 s while compiling, and printed nothing), now on the kernels run67 compiled.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 560 ./tests/gpu_conv.sh >$OUT/gconv_fp16.log 2>&1
echo "== gpu_conv fp16 (560 s): exit $? in $(( $(date +%s) - t0 )) s"
grep -E "FAIL|KIND=3 alone|passed|failed" $OUT/gconv_fp16.log | cut -c1-160 | tail -6
gzip -f $OUT/gconv_fp16.log
