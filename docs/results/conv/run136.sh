#!/bin/bash
# Device call 136 for convolution (issue 28), prepared 2026-12-01 (an eleventh session), not run: the session's last
# 132 s of device time could not start a machine. An A/B (PART=1) and then the GPU test it needs to land (PART=2).
# we (.gpu/cwe: HEAD + next_w_early.diff): conv_shape gains w_early, which conv.c sets where the launch's w is the
# filter as stored (no copy of it made in the launch: not 3xTF32, not the padded first layers, not NCHW8 with R·S
# > 1); the wgmma producer then issues the filters of its first tile's first STAGES k-tiles before
# griddepcontrol.wait (as GEMM's wgmma kernel issues B's first stage), and x's after it; the halo kernel (KIND 5)
# issues its whole filter copy before its wait, x's halos after.
# Prediction: the 1x1 rows 0.97-0.99 of hd's time (the first stages' filter bytes off the critical path), the KIND
# 5 rows 0.93-0.97 (their filter, 72 KB a block for 3x3, was on every block's path to its first mma), the 3x3 KIND
# 2 rows 0.98-1.0.
# ab_direct.sh on pdl_setup_rows.csv (14 batch-1 rows), three configurations, every split, each build twice, as
# run135 PART=1 (about 30 s); every point verified before it is timed.
# PART=2 (about 500 s): tests/gpu_conv.sh on we, fp16 then fp32 (w_early is 0 on 3xTF32's copies: fp32 shows that
# path unchanged). If PART=1 gains and PART=2 passes, land it (git apply docs/results/conv/next_w_early.diff), then
# the 67 batch-1 and speech rows as run135 PART=3 (run115.sh PART=1 on we's build).
# One call each: mkdir -p $OUT && OUT=$OUT PART=N bash docs/results/conv/run136.sh. Carry .gpu.
# Build: mkdir -p .gpu/chd .gpu/cwe && make && cp dlbtune .gpu/chd/ && git apply docs/results/conv/next_w_early.diff
# && make && cp dlbtune .gpu/cwe/ && git checkout src templates && make; bundle (../shared/gpu/bundle .gpu ./dlbtune).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
t0=$(date +%s)
if [ "${PART:-1}" = 2 ]; then
	for p in fp16 fp32; do
		DLB_REQUIRE_GPU=1 GPU_CONV_PRECS=$p top_builddir=.gpu/cwe timeout 290 sh tests/gpu_conv.sh >$OUT/gpu_conv_$p.txt 2>&1
		echo "== gpu_conv $p (.gpu/cwe/dlbtune): exit $? at $(( $(date +%s) - t0 )) s"; tail -3 $OUT/gpu_conv_$p.txt
	done
	exit 0
fi
OUT=$OUT A=hd BIN_A=.gpu/chd/dlbtune B=we BIN_B=.gpu/cwe/dlbtune ROWS=$d/pdl_setup_rows.csv TMO=60 \
	ONLY='BM=64 BN=64 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2|BM=64 BN=32 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2|BM=256 BN=64 BK=64 WARPS_M=2 WARPS_N=1 STAGES=2 KIND=5' \
	bash $d/ab_direct.sh
