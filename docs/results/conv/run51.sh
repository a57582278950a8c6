#!/bin/bash
# Device call 51 for convolution (issue 28): gpu_conv int8 on the conv_reduce build (every candidate exact on the
# awkward shapes, split-K included); then conv_training fp16 NHWC on a fresh database for the rest of the call
# (interrupted at its limit: what it finished is stored; the database comes back for the next call).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
GPU_CONV_PRECS=int8 DLB_REQUIRE_GPU=1 timeout -k 5 300 ./tests/gpu_conv.sh >$OUT/gconv_int8.log 2>&1
echo "== gpu_conv int8 (300 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed" $OUT/gconv_int8.log | cut -c1-160 | tail -5
left=$(( 560 - ($(date +%s) - s) ))
s=$(date +%s)
mkdir -p /tmp/dbT
timeout -s INT -k 10 $left ./dlbtune --op conv --prec fp16 --layout NHWC --suite training --db /tmp/dbT -v --csv >$OUT/training.csv 2>$OUT/training.err
echo "== conv_training fp16 ($left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "^\[" $OUT/training.err) rows"
mkdir -p $OUT/dbT && cp /tmp/dbT/data.mdb $OUT/dbT/ && gzip -f $OUT/training.err
