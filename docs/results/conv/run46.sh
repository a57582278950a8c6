#!/bin/bash
# Device call 46 for convolution (issue 28): + two blocks an SM for KIND 2 with one consumer warpgroup and 64x64
# tiles (128 registers: split-K's finish 8 elements at a time; persistent grids of two blocks an SM where two
# blocks' shared memory fits). The rows of run45 on the whole space, then conv_training fp16 NHWC on a fresh
# database (the kernel cache of the rows' run copied in), then gpu_conv fp16.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
timeout -s INT -k 10 80 ./dlbtune --op conv --prec fp16 --suite docs/results/conv/run45_rows.csv --layout NHWC --db /tmp/dbR -v --csv >$OUT/rows.csv 2>$OUT/rows.err
echo "== rows: exit $? in $(( $(date +%s) - s )) s"
grep -E "wrong|fault" $OUT/rows.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
gzip -f $OUT/rows.err
mkdir -p /tmp/training && cp -r /tmp/dbR/kernels /tmp/training/
s=$(date +%s)
timeout -s INT -k 10 250 ./dlbtune --op conv --prec fp16 --suite training --layout NHWC --db /tmp/training -v --csv >$OUT/training.csv 2>$OUT/training.err
echo "== conv_training fp16 NHWC (250 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "wrong|fault" $OUT/training.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
gzip -f $OUT/training.err
s=$(date +%s)
GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -k 5 230 ./tests/gpu_conv.sh >$OUT/gconv_fp16.log 2>&1
echo "== gpu_conv fp16 (230 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed" $OUT/gconv_fp16.log | cut -c1-160 | tail -5
