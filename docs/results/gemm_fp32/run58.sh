#!/bin/bash
# Device call 58 for fp32 GEMM (issue 30), 2026-12-01. run57 (NOTES 224): the few-rows family (next_fewrows.diff,
# built in .gpu/fr) verifies but its best candidate on 35x8457x4096 NN takes 268 µs against the tile's 155.
# ncu's counters for both winners on that shape (few rows BM 64 BN 128 TN 1 KU 16; tile BM 16 BN 128 TM 8 TN 2),
# then the few-rows kernel's source page (ncu_source.py), to say why before changing it.
# One call: mkdir -p $OUT && OUT=$OUT bash docs/results/gemm_fp32/run58.sh. Carry dlbtune and .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
m=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,\
sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,\
sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__inst_executed_pipe_fma.sum,\
smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_global_ld.sum,dram__bytes_read.sum,\
dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_wait_per_issue_active.ratio
fr="BM=64 BN=128 BK=16 TM=4 TN=1 KIND=3 KS=1 KU=16 L2PF=0"
tl="BM=16 BN=128 BK=32 TM=8 TN=2 KIND=0 KS=1 KU=4 L2PF=0"
for job in "fewrows:$fr" "tile:$tl"; do
	name=${job%%:*}; cfg=${job#*:}
	timeout -k 5 100 ncu --clock-control none --target-processes all -k regex:gemm_nn --launch-skip 3 --launch-count 1 \
		--metrics $m .gpu/fr/dlbtune --op gemm --prec fp32 --m 35 --n 8457 --k 4096 --only "$cfg" --power-ms 0 \
		--fixed-samples 2 --db /tmp/db_m_$name >$OUT/metrics_$name.txt 2>&1
	echo "== $name: exit $? at $(( $(date +%s) - t0 )) s"
	grep -E "^ +[a-z_0-9]+__" $OUT/metrics_$name.txt | awk '{print "  ", $1, $(NF-1), $NF}'
done
timeout -k 5 150 ncu --clock-control none --target-processes all -k regex:gemm_nn --launch-skip 3 --launch-count 1 \
	--section SourceCounters --page source --print-source sass --csv \
	.gpu/fr/dlbtune --op gemm --prec fp32 --m 35 --n 8457 --k 4096 --only "$fr" \
	--power-ms 0 --fixed-samples 2 --db /tmp/db_src >$OUT/fr_source.csv 2>$OUT/fr_source.err
echo "== few rows source page: exit $? at $(( $(date +%s) - t0 )) s"
python3 docs/results/gemm_fp32/ncu_source.py $OUT/fr_source.csv --top 12
gzip -f $OUT/fr_source.csv
