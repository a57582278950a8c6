#!/bin/bash
# Device call 42 for issue 30, prepared 2026-11-28 (not run). run41 measured KIND 3 of next_kind3_pipelined.diff
# alone: its 256x128 and 128x128 8x16 tiles at 54-61% of peak, where KIND 0's 128x64 8x8 runs 65% and cuBLAS's
# 256x128x8 kernel (16x8 a thread, the same shape of work) about 75%. Why? ncu's source page (instructions and
# stall samples per SASS line, ncu_source.py) of KIND 3's 256x128 BK 16 tile (.gpu/dlbtune_k3, built from 84f4ca2
# with the diff) on NN 5124x9124x2560, and the shared-memory bank conflicts and warp counts of it, of KIND 0's
# winner and of cuBLAS's kernel. Needs a Firecracker machine (nvidia-h200).
# Prediction: KIND 3 loses to LDS bank conflicts on the 16-wide B fragment (two LDS.128 per depth at a stride
# that maps lanes 0-7 and 8-15 to the same banks) or to mio throttle, not to occupancy (1 block of 8 warps, as
# cuBLAS's).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
m=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,\
sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum,\
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
for job in "k3:gemm_nn:.gpu/dlbtune_k3:BM=256 BN=128 BK=16 TM=8 TN=16 KIND=3" \
	"k0:gemm_nn:./dlbtune:BM=64 BN=64 BK=16 TM=8 TN=8 KIND=0" "cublas:xmma|sgemm|cutlass:./dlbtune:BM=64 BN=64 BK=16 TM=8 TN=8 KIND=0"; do
	IFS=: read name re bin cfg <<<"$job"
	timeout -k 5 120 ncu --clock-control none --target-processes all -k regex:"$re" --launch-skip 2 --launch-count 1 \
		--metrics $m $bin --op gemm --prec fp32 --m 5124 --n 9124 --k 2560 --only "$cfg" --power-ms 0 --fixed-samples 2 \
		--db /tmp/db_m_$name >$OUT/metrics_$name.txt 2>&1
	echo "== $name metrics: exit $? at $(( $(date +%s) - t0 )) s"
	grep -E "^ +[a-z_0-9]+__" $OUT/metrics_$name.txt | awk '{print "  ", $1, $(NF-1), $NF}'
done
timeout -k 5 150 ncu --clock-control none --target-processes all -k regex:gemm_nn --launch-skip 2 --launch-count 1 \
	--section SourceCounters --page source --print-source sass --csv \
	.gpu/dlbtune_k3 --op gemm --prec fp32 --m 5124 --n 9124 --k 2560 --only "BM=256 BN=128 BK=16 TM=8 TN=16 KIND=3" \
	--power-ms 0 --fixed-samples 2 --db /tmp/db_src_k3 >$OUT/k3_source.csv 2>$OUT/k3_source.err
echo "== KIND 3 source page: exit $? at $(( $(date +%s) - t0 )) s"
python3 docs/results/gemm_fp32/ncu_source.py $OUT/k3_source.csv
gzip -f $OUT/k3_source.csv
