#!/bin/bash
# Device call 38 for issue 30, 2026-11-28: ncu's source page (instructions and stall samples per SASS line) after
# db3fc57, for KIND 0 128x64 BK16 8x8 on NT 4096x7133x4096 (run36 had it through load_edge) and on NN
# 5124x9124x2560, and cuBLAS's kernel on the NN shape (run36 has its NT one). Question: with the bounds checks
# gone, what holds our FFMAs back (run36: short scoreboard 8%, wait 10%, dispatch 7% of samples against cuBLAS's
# 0.6%, 0.6%, 4%)? Needs a Firecracker machine (nvidia-h200).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
for job in "ours_nt:gemm_nt:4096 7133 4096 0 1" "ours_nn:gemm_nn:5124 9124 2560 0 0" \
	"cublas_nn:xmma|sgemm|cutlass:5124 9124 2560 0 0"; do
	IFS=: read name re shape <<<"$job"
	read m n k ta tb <<<"$shape"
	timeout -k 5 150 ncu --clock-control none --target-processes all -k regex:"$re" --launch-skip 2 --launch-count 1 \
		--section SourceCounters --page source --print-source sass --csv \
		./dlbtune --op gemm --prec fp32 --m $m --n $n --k $k --ta $ta --tb $tb \
		--only "BM=128 BN=64 BK=16 TM=8 TN=8 KIND=0" --power-ms 0 --fixed-samples 2 --db /tmp/db_$name \
		>$OUT/$name.csv 2>$OUT/$name.err
	echo "== $name: exit $? at $(( $(date +%s) - t0 )) s"
	grep "paired speedup" $OUT/$name.err | head -1
	python3 docs/results/gemm_fp32/ncu_source.py $OUT/$name.csv
done
