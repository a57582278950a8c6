#!/bin/bash
# Device call 58 for convolution (issue 28): KIND 2 reads x of a 1x1 stride-1 unpadded layer as the plain
# matrix [N*H*W][C] through a tiled tensor map (a GEMM's loads), not an im2col one. Ten 1x1 rows where run56's
# GEMM kernels beat the conv kernels (conv1x1_rows.csv), searched with the build before (.gpu/dlbtune.old,
# 3a19030) and after, each on a fresh database; then conv_training fp16 NHWC with the new build.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
for b in old new; do
	bin=./dlbtune; [ $b = old ] && bin=.gpu/dlbtune.old
	s=$(date +%s)
	timeout -s INT -k 10 150 $bin --op conv --prec fp16 --suite docs/results/conv/conv1x1_rows.csv --db /tmp/db1$b -v --csv >$OUT/rows_$b.csv 2>$OUT/rows_$b.err
	echo "== 1x1 rows, $b build: exit $? in $(( $(date +%s) - s )) s"
done
left=$(( 585 - ($(date +%s) - t0) ))
s=$(date +%s)
timeout -s INT -k 10 $left ./dlbtune --op conv --prec fp16 --layout NHWC --suite training --db /tmp/dbT -v --csv >$OUT/training.csv 2>$OUT/training.err
echo "== conv_training fp16 ($left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "^\[" $OUT/training.err) rows"
grep -E "wrong|fault" $OUT/training.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
gzip -f $OUT/*.err
