#!/bin/bash
# Device call 60 for fp32 GEMM (issue 30), 2026-12-01: what cuBLAS runs on 35x8457x4096 NN in strict fp32
# (run57-59: our tile 156 µs, cuBLAS's best 116-130): ncu's counters for the first vendor kernels dlbtune times
# there (names, grid, registers, occupancy, FMA pipe, DRAM bytes), beside run58's numbers for our tile.
# Then conv run134 PART=3 (conv_training fp32 NCHW whole) with what device time is left.
# As run, the ncu step also had --fp32-math ffma, which --only excludes (exit 2: logs/run60/cublas_failed_args.txt);
# it ran again alone, as here without that option, with 4 launches (logs/run60/cublas.txt).
# One call: mkdir -p $OUT && OUT=$OUT bash docs/results/gemm_fp32/run60.sh. Carry dlbtune and .gpu.
. .gpu/env.sh
mkdir -p $OUT/ncu $OUT/conv
exec > >(tee $OUT/ncu/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
m=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,\
launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,\
sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,\
sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__inst_executed_pipe_fma.sum,\
smsp__inst_executed_op_shared_ld.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct
timeout -k 5 60 ncu --clock-control none --target-processes all -k regex:'sgemm|xmma|cutlass|sm90|ampere|Kernel' \
	--launch-count 6 --metrics $m ./dlbtune --op gemm --prec fp32 --m 35 --n 8457 --k 4096 \
	--only 'BM=16 BN=128 BK=32 TM=8 TN=2 KIND=0' --power-ms 0 --fixed-samples 1 --db /tmp/db60 >$OUT/ncu/cublas.txt 2>&1
echo "== ncu cuBLAS: exit $? at $(( $(date +%s) - t0 )) s"
grep -E "^  [A-Za-z_].*\(|^ +(gpu__time|launch__grid|launch__block|launch__reg|sm__warps|sm__pipe_fma|smsp__issue|dram__bytes)" $OUT/ncu/cublas.txt | head -70
OUT=$OUT/conv T3=440 PART=3 bash docs/results/conv/run134.sh
