#!/bin/bash
# Device call 61 for convolution (issue 28): KIND 2's plain-matrix loads of x for 1x1 stride-1 unpadded layers
# compiled apart (source specialisations "-1x1", X2D 1), so the im2col kernels are the code of 3a19030 again.
# 1. run60's A/B on six im2col rows (--only their three KIND 2 winners), the build before (.gpu/dlbtune.old,
#    3a19030) and this one, alternately, twice; 2. run58's ten 1x1 rows, whole space, this build;
# 3. gpu_conv fp16 and fp32 (the 3xTF32 kernels read x the same way), with the 1x1 stride-1 awkward rows.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
only='BM=128 BN=128 BK=64 WARPS_M=2 WARPS_N=1 STAGES=4 KIND=2|BM=128 BN=64 BK=64 WARPS_M=2 WARPS_N=1 STAGES=8 KIND=2|BM=64 BN=128 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2'
for i in 1 2; do
	for b in old new; do
		bin=./dlbtune; [ $b = old ] && bin=.gpu/dlbtune.old
		timeout -s INT -k 10 120 $bin --op conv --prec fp16 --suite docs/results/conv/im2col_rows.csv --only "$only" --db /tmp/db$b$i -v --csv >$OUT/ab_${b}_$i.csv 2>$OUT/ab_${b}_$i.err
		echo "== A/B $b $i: exit $?"
	done
done
s=$(date +%s)
timeout -s INT -k 10 150 ./dlbtune --op conv --prec fp16 --suite docs/results/conv/conv1x1_rows.csv --db /tmp/db1 -v --csv >$OUT/rows.csv 2>$OUT/rows.err
echo "== 1x1 rows: exit $? in $(( $(date +%s) - s )) s"
for p in fp16 fp32; do
	s=$(date +%s)
	GPU_CONV_PRECS=$p DLB_REQUIRE_GPU=1 timeout -k 5 330 ./tests/gpu_conv.sh >$OUT/gconv_$p.log 2>&1
	echo "== gpu_conv $p: exit $? in $(( $(date +%s) - s )) s"
	grep -E "FAIL|passed|failed" $OUT/gconv_$p.log | cut -c1-160 | tail -5
done
gzip -f $OUT/*.err $OUT/gconv_*.log
