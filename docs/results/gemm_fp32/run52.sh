#!/bin/bash
# Device call 52 for issue 30, prepared 2026-11-29 (not run). With --fp32-math ffma the >= 1 GFLOP rows are at
# 0.907x (run46), the issue's last unmet target, and TN is the weakest layout: 0.868x over 28 rows against NN's
# 0.922x (NOTES item 130). Same tile, same shape, both layouts: ncu's counters for KIND 0's 64x64 BK 16 8x8 tile
# (run42's NN kernel) and for cuBLAS's kernel on 8448x24000x2816 NN and TN (run46: 0.833x TN with this tile),
# then ncu's source page of the TN kernel (ncu_source.py). Needs a machine where ncu runs (nvidia-h200).
# Build: make; carry dlbtune, .gpu/env.sh, .gpu/lib.
# Prediction: the TN kernel executes more instructions a k-tile (both operands stored transposed: 4 STS.32 a
# float4, about 32 STS a tile against NN's 20) and stalls more on the barrier after those stores; its FFMA share
# is 1-3 points under NN's, issue active about the same; cuBLAS's TN and NN kernels run within 2% of each other.
# If instead TN's short-scoreboard stalls (the fragments' latency) are what differ, the stores are not the cause.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
m=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,\
sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__inst_executed_pipe_fma.sum,\
smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_global_ld.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_wait_per_issue_active.ratio
cfg="BM=64 BN=64 BK=16 TM=8 TN=8 KIND=0"
for job in "k0_nn:gemm_nn:0" "k0_tn:gemm_tn:1" "cublas_nn:xmma|sgemm|cutlass:0" "cublas_tn:xmma|sgemm|cutlass:1"; do
	IFS=: read name re ta <<<"$job"
	timeout -k 5 100 ncu --clock-control none --target-processes all -k regex:"$re" --launch-skip 2 --launch-count 1 \
		--metrics $m ./dlbtune --op gemm --prec fp32 --m 8448 --n 24000 --k 2816 --ta $ta --only "$cfg" --power-ms 0 \
		--fixed-samples 2 --db /tmp/db_m_$name >$OUT/metrics_$name.txt 2>&1
	echo "== $name: exit $? at $(( $(date +%s) - t0 )) s"
	grep -E "^ +[a-z_0-9]+__" $OUT/metrics_$name.txt | awk '{print "  ", $1, $(NF-1), $NF}'
	grep -m1 -E "==PROF== Profiling" $OUT/metrics_$name.txt
done
timeout -k 5 150 ncu --clock-control none --target-processes all -k regex:gemm_tn --launch-skip 2 --launch-count 1 \
	--section SourceCounters --page source --print-source sass --csv \
	./dlbtune --op gemm --prec fp32 --m 8448 --n 24000 --k 2816 --ta 1 --only "$cfg" \
	--power-ms 0 --fixed-samples 2 --db /tmp/db_src_tn >$OUT/tn_source.csv 2>$OUT/tn_source.err
echo "== TN source page: exit $? at $(( $(date +%s) - t0 )) s"
python3 docs/results/gemm_fp32/ncu_source.py $OUT/tn_source.csv
gzip -f $OUT/tn_source.csv
echo "== total $(( $(date +%s) - t0 )) s"
