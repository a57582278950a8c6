#!/bin/bash
# Device call 41 for convolution (issue 28): the session's final build. gpu_conv fp16 (conv_fp16.cu changed
# under it: the TF32 build of its wgmma kernels), gpu_sass (nvdisasm against sass_ops, conv fp32's 3xTF32 cubins
# included) and one 3xTF32 cubin's HGMMA lines as nvdisasm prints them.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 330 ./tests/gpu_conv.sh >$OUT/gconv_fp16.log 2>&1
echo "== gpu_conv fp16 (330 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|wrong" $OUT/gconv_fp16.log | cut -c1-160 | tail -20
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_sass.sh >$OUT/gpu_sass.log 2>&1
echo "== gpu_sass (200 s): exit $? in $(( $(date +%s) - s )) s"
tail -5 $OUT/gpu_sass.log | cut -c1-200
DLBTUNE_DB=/tmp/k ./dlbtune compile --op conv --prec fp32 --arch sm_90a --only 'BM=128 BN=128 BK=32 TM=2 TN=2 WARPS_M=2 STAGES=4 KIND=2' --emit /tmp/em >/dev/null 2>&1
f=$(ls /tmp/em/fp32/*NHWC3xTF32*.cubin | head -1)
nvdisasm "$f" | grep -E "HGMMA" | head -3 | sed 's/^ *//' | cut -c1-160
