#!/bin/bash
# Device calls 130 for convolution (issue 28), prepared 2026-12-01 (an eighth session); run 2026-12-01 (a ninth session)
# on one H200, PART=1 then PART=2 on one machine, logs in logs/run130 (docs/NOTES.md item 215); the diff landed.
# next_k3_staged.diff (st: fp16's KIND 3 in NHWC, where K % 8 == 0 and the block's BN filters are all in y, stages
# the block's results in shared memory over the patch and stores 16 bytes at a time, BN/8 stores a pixel instead of
# BN/2: a quarter of the store instructions; conv.c's direct_smem gives it BM·(BN + 8)·2 bytes at least; docs/NOTES.md
# item 214). Built here: conv_cli and sass_check pass; 0 spills (BM 128 BN 32 WARPS_M 4: 94 registers, HEAD 96;
# four STG.E.128 a thread on the staged path); 43 sampled cubins of the other paths (fp16 KIND 3 NCHW, KIND 4, fp32
# KIND 3) byte-identical to HEAD's, so only fp16 NHWC KIND 3 needs the device.
# Why: item 194's ncu put KIND 3's first layers' time in the epilogue's stores (lg throttle 15.4% of the samples,
# the exit's drain 16.5-24.6%), and item 195's two-filter stores took 700x161 c1 k64 from 7.62 to 6.64 µs.
# PART=1 (about 200 s): tests/gpu_conv.sh GPU_CONV_DIRECT=1 GPU_CONV_PRECS=fp16 on st's build (must pass: KIND 3
#   alone on 19 rows, 0 wrong), then HEAD against st on direct_rows116.csv (ab_direct.sh), each build twice.
#   Prediction: 700x161 c1 k64 5x5 s2 n1 6.62 -> about 5.8 µs, n2 9.76 -> about 8.5; 224x224 c3 k64 7.97 -> about
#   7.2; rows with K < BN or K % 8 != 0 unchanged (the old path); geomean over the KIND 3 rows about 0.92.
# PART=2 (about 550 s): run115.sh PART=1 on st's build (the 67 batch-1 and speech rows, thirds cut at 180 s),
#   against run127's batch 1 1.442x and speech 1.488x. Prediction: speech about 1.50x (the two 700x161 c1 k64 rows
#   from 1.13x and 1.21x to about 1.28x and 1.38x).
# If PART=1 passes and PART=2 does not lose, land it: git apply docs/results/conv/next_k3_staged.diff.
# One call each: mkdir -p $OUT && OUT=$OUT PART=N bash docs/results/conv/run130.sh.
# Build: git apply docs/results/conv/next_k3_staged.diff && make && mkdir -p .gpu/cst && cp dlbtune .gpu/cst/
# && git checkout src templates && make && mkdir -p .gpu/chd && cp dlbtune .gpu/chd/; bundle
# (../shared/gpu/bundle .gpu ./dlbtune); carry dlbtune and .gpu.
. .gpu/env.sh
part=${PART:-1}
d=docs/results/conv
t0=$(date +%s)
if [ $part = 2 ]; then
	cp .gpu/cst/dlbtune ./dlbtune && mkdir -p $OUT/p2 && OUT=$OUT/p2 PART=1 LIMIT=180 bash $d/run115.sh
	tar czf $OUT/p2.tgz -C $OUT p2 && rm -rf $OUT/p2
	exit 0
fi
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
DLB_REQUIRE_GPU=1 GPU_CONV_DIRECT=1 GPU_CONV_PRECS=fp16 top_builddir=.gpu/cst timeout 250 sh tests/gpu_conv.sh \
	>$OUT/gpu_conv_direct_fp16.txt 2>&1
echo "== gpu_conv direct fp16 (.gpu/cst/dlbtune): exit $? at $(( $(date +%s) - t0 )) s"; tail -5 $OUT/gpu_conv_direct_fp16.txt
OUT=$OUT A=hd BIN_A=.gpu/chd/dlbtune B=st BIN_B=.gpu/cst/dlbtune bash $d/ab_direct.sh
