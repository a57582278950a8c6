#!/bin/bash
# Device call 56 for convolution (issue 28), build 3a19030 (BN 32 for the fp16 wgmma kinds): the whole
# conv_training fp16 NHWC suite on a fresh database, then the GEMM fp16 space on the GEMMs that the suites'
# 1x1 stride-1 unpadded NHWC layers are (conv1x1_gemm.csv: TN, m = K filters, n = N*H*W pixels, k = C), to see
# whether the GEMM kernels beat the conv kernels there (the issue: "1x1 convolutions in NHWC are plain GEMMs").
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
timeout -s INT -k 10 380 ./dlbtune --op conv --prec fp16 --layout NHWC --suite training --db /tmp/dbT -v --csv >$OUT/training.csv 2>$OUT/training.err
echo "== conv_training fp16 (380 s): exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/training.err) rows"
grep -E "wrong|fault" $OUT/training.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
left=$(( 585 - ($(date +%s) - t0) ))
s=$(date +%s)
timeout -s INT -k 10 $left ./dlbtune --op gemm --prec fp16 --suite docs/results/conv/conv1x1_gemm.csv --db /tmp/dbG -v --csv >$OUT/gemm1x1.csv 2>$OUT/gemm1x1.err
echo "== gemm fp16 on the 1x1 layers' GEMMs ($left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "^\[" $OUT/gemm1x1.err) rows"
gzip -f $OUT/training.err $OUT/gemm1x1.err
