#!/bin/bash
# Device call 54 (sparse, issue 29), 2026-11-28: what bounds fp32's KIND 3 now (run53: its rows at 1.24-2.16x
# cuSPARSE, where fp16's KIND 5 reaches 1.43-4.29x)? A count from the kernel says shared memory: every nonzero
# costs a lane VN floats of B from the slab (one LDS.128 a warp, 4 wavefronts, for 4 FFMA instructions), so at
# most a quarter of the FFMA peak, ~16.7 useful TFLOP/s on an H200; 10752x6000x3584 at 90% runs 10.7 (64% of
# that), 7680x1500x2560 at 95% 7.8 (47%). ncu on both (run53's winners): the counters and the source page.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
m=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed,\
sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,\
sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed,\
dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg
i=0
for job in "7680 1500 2560 0.95:KIND=3 TPR=32 VN=4 WARPS=16 RPW=16 BK=128" \
	"10752 6000 3584 0.9:KIND=3 TPR=32 VN=4 WARPS=16 RPW=16 BK=128"; do
	i=$((i + 1))
	read mm nn kk sp <<<"${job%%:*}"
	cfg=${job#*:}
	s=$(date +%s)
	timeout -k 5 100 ncu --target-processes all -k regex:'^spmm$' -c 1 --metrics $m \
		./dlbtune --op spmm --m $mm --n $nn --k $kk --sparsity $sp --only "$cfg" --db /tmp/ncu$i.db \
		>$OUT/ncu$i.txt 2>&1
	echo "== ncu ${mm}x${nn}x${kk} at $sp, $cfg: exit $? in $(( $(date +%s) - s )) s"
	grep -E "^ +[a-z_]+__" $OUT/ncu$i.txt | awk '{print "  ", $1, $(NF-1), $NF}'
	timeout -k 5 150 ncu --target-processes all -k regex:'^spmm$' -c 1 --section SourceCounters --page source \
		--print-source sass --csv ./dlbtune --op spmm --m $mm --n $nn --k $kk --sparsity $sp --only "$cfg" \
		--db /tmp/src$i.db >$OUT/src$i.csv 2>$OUT/src$i.err
	echo "== source page: exit $?"
	python3 docs/results/gemm_fp32/ncu_source.py $OUT/src$i.csv
done
