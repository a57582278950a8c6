#!/bin/bash
# Device call 103 for convolution (issue 28), 2026-11-29 (the ninth session): where KIND 4's instructions go.
# run101's ncu had the wgmma build at 6,120 instructions a warp (the copies build 6,310) and 43% of issue slots
# busy; the SASS (docs/NOTES.md item 153) puts the 64-k pass at 95 instructions against the old four-step body's
# 104. ncu's source page (per-instruction executed counts and stall samples) of the 341x79 n32 winner and of the
# n4 winner places the rest, for the next change to KIND 4.
# Build here (./bootstrap && ./configure && make, 4e2025f or later), carry dlbtune and .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
p341="--w 341 --h 79 --c 32 --k 32 --s 10 --r 5 --stride-w 2 --stride-h 2"
for cfg in "32 BM=128 BN=32 BK=16" "4 BM=128 BN=32 BK=32"; do
	set -- $cfg; n=$1; shift
	t0=$(date +%s)
	timeout -k 5 120 ncu --clock-control none --target-processes all -k regex:conv_nhwc --launch-skip 2 --launch-count 1 \
		--section SourceCounters --page source --print-source sass --csv ./dlbtune --op conv --prec fp16 --layout NHWC \
		$p341 --n $n --only "$* WARPS_M=4 WARPS_N=1 STAGES=2 KIND=4" --power-ms 0 --fixed-samples 2 --paired 0 \
		--db /tmp/db_src$n >$OUT/k4_n${n}_source.csv 2>$OUT/k4_n${n}_source.err
	echo "== n$n source page: exit $? in $(( $(date +%s) - t0 )) s"
	python3 docs/results/gemm_fp32/ncu_source.py $OUT/k4_n${n}_source.csv | head -30
done
gzip -f $OUT/*.csv $OUT/*.err
