#!/bin/bash
# Device call 60 for convolution (issue 28): does run58's build (KIND 2 choosing the tiled or the im2col map of
# x at run time) slow the im2col layers? Six fp16 NHWC rows whose KIND 2 winner (the same configuration in
# run56 and run58) ran 3-10% slower in run58 (im2col_rows.csv), searched over those winners' three
# configurations (--only) with the build before (.gpu/dlbtune.old, 3a19030) and after, alternately, twice,
# each on a fresh database, on one machine.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
only='BM=128 BN=128 BK=64 WARPS_M=2 WARPS_N=1 STAGES=4 KIND=2|BM=128 BN=64 BK=64 WARPS_M=2 WARPS_N=1 STAGES=8 KIND=2|BM=64 BN=128 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2'
for i in 1 2; do
	for b in old new; do
		bin=./dlbtune; [ $b = old ] && bin=.gpu/dlbtune.old
		s=$(date +%s)
		timeout -s INT -k 10 120 $bin --op conv --prec fp16 --suite docs/results/conv/im2col_rows.csv --only "$only" --db /tmp/db$b$i -v --csv >$OUT/${b}_$i.csv 2>$OUT/${b}_$i.err
		echo "== $b $i: exit $? in $(( $(date +%s) - s )) s"
	done
done
gzip -f $OUT/*.err
