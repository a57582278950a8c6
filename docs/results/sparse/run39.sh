#!/bin/bash
# Device call 39 (sparse, issue 29): ncu's counters for three KIND 3 kernels on 7680x1500x2560 at 90% (run38's
# winner, BM = 32 rows a block; BM = 64; BM = 128), and for KIND 1's winner, to see what bounds them.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
m=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,\
l1tex__t_bytes.sum,lts__t_bytes.sum,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,\
smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__throughput.avg.pct_of_peak_sustained_active,\
lts__throughput.avg.pct_of_peak_sustained_elapsed,\
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
i=0
for cfg in "KIND=3 TPR=32 VN=8 WARPS=8 RPW=4 BK=32" "KIND=3 TPR=32 VN=4 WARPS=8 RPW=8 BK=64" \
	"KIND=3 TPR=32 VN=4 WARPS=8 RPW=16 BK=32" "KIND=1 TPR=32 VN=4 WARPS=2 RPW=1 BK=32"; do
	i=$((i + 1))
	s=$(date +%s)
	timeout -k 5 100 ncu --target-processes all -k regex:'^spmm$' -c 1 --metrics $m \
		./dlbtune --op spmm --m 7680 --n 1500 --k 2560 --sparsity 0.9 --only "$cfg" --db $OUT/ncu$i.db \
		>$OUT/ncu$i.txt 2>&1
	echo "== ncu $cfg: exit $? in $(( $(date +%s) - s )) s"
	grep -E "^\[|data:" $OUT/ncu$i.txt | cut -c1-200
	grep -E "^ +[a-z_]+__" $OUT/ncu$i.txt | awk '{print $1, $(NF-1), $NF}'
done
rm -rf $OUT/*.db
