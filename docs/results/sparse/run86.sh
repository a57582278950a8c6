#!/bin/bash
# Device call 86 (sparse; it also ran conv's fp32 GPU test), 2026-11-29, the third session that day: the GPU tests
# after two template changes of this session: templates/spmm.cu's axpy_row made of load_brow and fma_row (a
# review's cleanup: its vector path had repeated them; the same sums in the same order) and conv_cluster_finish's
# NCHW stores (conv run85). Carry dlbtune, .gpu/env.sh, .gpu/lib. Prediction: both pass.
. .gpu/env.sh
export DLB_REQUIRE_GPU=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
timeout -k 5 240 sh tests/gpu_spmm.sh >$OUT/gpu_spmm.txt 2>&1
echo "gpu_spmm: rc $? in $(( $(date +%s) - t0 )) s"; tail -3 $OUT/gpu_spmm.txt
t1=$(date +%s)
GPU_CONV_PRECS=fp32 timeout -k 5 $(( 445 - (t1 - t0) )) sh tests/gpu_conv.sh >$OUT/gpu_conv.txt 2>&1
echo "gpu_conv fp32: rc $? in $(( $(date +%s) - t1 )) s"; tail -4 $OUT/gpu_conv.txt
