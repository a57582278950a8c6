#!/bin/bash
# Device call 123 (issue 28), prepared 2026-11-30 (a seventh session): where the two weak batch-2 speech rows'
# time goes, for the next kernel (run122: the search is not the gap, so the kernels are). ncu (ncu_launch.sh)
# on HEAD's build:
#   350x80 c64 k64 3x3 n2: run122's exhaustive best BM 256 BN 64 STAGES 4 KIND 2 (15.4 µs, cuDNN 16.3) and
#   cuDNN's kernel; 84x20 c256 k256 3x3 n1: BM 64 BN 64 STAGES 8 KIND 2 (9.3 µs, cuDNN 10.9), ours only.
# Prediction, from the bytes (350x80 n2: x read once a tap through L2, 219 tiles x 9 taps x 32 KB = 63 MB, the
# filters 219 x 72 KB = 16 MB; 79 MB in 15.4 µs, 5.1 TB/s): L2 throughput over 60% of peak, DRAM under 30%, the
# consumers' waits for a full stage the largest stall; if so, the next kernel keeps a halo of x in shared memory
# and reads each tap from it (item 204), cutting the L2 bytes of x by about 4x at 3x3.
# One call: mkdir -p $OUT && OUT=$OUT bash docs/results/conv/run123.sh. Build: make; bundle; carry dlbtune, .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
p="--op conv --prec fp16 --layout NHWC --s 3 --r 3 --pad-w 1 --pad-h 1"
OUT=$OUT TAG=k2_350n2 BIN=./dlbtune ROW="$p --w 350 --h 80 --c 64 --k 64 --n 2" \
	CFG="BM=256 BN=64 BK=64 WARPS_M=2 WARPS_N=1 STAGES=4 KIND=2" VENDOR="regex:sm90|implicit|fprop" bash $d/ncu_launch.sh
OUT=$OUT TAG=k2_84 BIN=./dlbtune ROW="$p --w 84 --h 20 --c 256 --k 256 --n 1" \
	CFG="BM=64 BN=64 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2" bash $d/ncu_launch.sh
