#!/bin/bash
# Device call 129 (issue 28), prepared 2026-12-01 (an eighth session; no device time left): why KIND 5 with the
# filters streamed (run126, next_conv_halo_stream.diff) is slower than KIND 2 on 175x40 c128 k128 3x3 n2 (13.6
# against 11.6 µs), and what bounds the landed C = 64 kernel on 350x80 c64 k64 n2 (12.8 µs; cuDNN 16.2).
# ncu (ncu_launch.sh: the source page's stall samples and the details) on four launches:
#   k5s_175: 175x40 c128 n2, KIND 5 streamed BM 128 BN 64 STAGES 4 (the diff's best there);
#   k2_175:  the same row, KIND 2 BM 128 BN 128 WARPS_M 2 STAGES 6 (run125's winner), and cuDNN's kernel;
#   k5_350:  350x80 c64 n2, KIND 5 BM 128 BN 64 STAGES 2 (run125's winner; the resident-filter path, unchanged
#            by the diff).
# Prediction (NOTES item 212): the streamed kernel's consumers wait on the full barrier (the per-stage copies'
# latency: a stage carries 41 KB and serves only 24 wgmmas) more than KIND 2's; L2 under 40% busy in both. If the
# consumers instead stall on the wgmma chain (wait_group), the stage's 24 wgmmas are too few to cover it, and
# merging filter rows (two rows a stage) is the next build.
# Build: git apply docs/results/conv/next_conv_halo_stream.diff && make; ../shared/gpu/bundle .gpu ./dlbtune;
# carry dlbtune and .gpu. One call (about 150 s): mkdir -p $OUT && OUT=$OUT bash docs/results/conv/run129.sh
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
p="--op conv --prec fp16 --layout NHWC --s 3 --r 3 --pad-w 1 --pad-h 1"
OUT=$OUT TAG=k5s_175 BIN=./dlbtune ROW="$p --w 175 --h 40 --c 128 --k 128 --n 2" \
	CFG="BM=128 BN=64 BK=64 WARPS_M=2 WARPS_N=1 STAGES=4 KIND=5" bash $d/ncu_launch.sh
OUT=$OUT TAG=k2_175 BIN=./dlbtune ROW="$p --w 175 --h 40 --c 128 --k 128 --n 2" \
	CFG="BM=128 BN=128 BK=64 WARPS_M=2 WARPS_N=1 STAGES=6 KIND=2" VENDOR="regex:sm90|implicit|fprop" bash $d/ncu_launch.sh
OUT=$OUT TAG=k5_350 BIN=./dlbtune ROW="$p --w 350 --h 80 --c 64 --k 64 --n 2" \
	CFG="BM=128 BN=64 BK=64 WARPS_M=2 WARPS_N=1 STAGES=2 KIND=5" bash $d/ncu_launch.sh
