#!/bin/bash
# Device calls 135 for convolution (issue 28), 2026-12-01 (an eleventh session), one H200; run as written, PART=2's fp16
# half (out of its 280 s compiling cold) again alone with 520 s, then a PART=4 inline: the 36 rows of
# inference_rest132.csv on .gpu/cpw, default search (logs/run135, docs/NOTES.md item 231). Landed after the run, with
# the compiled-out layout's trap kernels waiting at entry again (sass_check); the kernels that run are the same.
# pw (the working tree's build, .gpu/cpw): the wgmma kernels (KIND 1, 2: conv_body_wg) and the halo kernel (KIND 5)
# wait for the kernel before them (griddepcontrol.wait) in their bodies, after the block's set-up and, in the
# producer, after prefetch.tensormap of both maps, instead of first thing at entry. In the harness's back-to-back
# launches on rotated inputs (src/bench.c) a launch's blocks are resident while the launch before finishes (PDL);
# until now they then began the barriers' set-up and the tensor maps' fetch, a memory round trip before the first
# copy could be issued. The maps are kernel parameters, written by no kernel, so their fetch may come first.
# Prediction: the batch-1 rows whose time is mostly fixed cost (1x1, 3.3-4.7 µs) 0.3-0.5 µs less (0.90-0.93 of hd);
# the 3x3 rows of 6-10 µs the same absolute gain (0.95-0.97). Within 1%: the map's fetch was not on the path.
# PART=1 (about 200 s): ab_direct.sh, hd (.gpu/chd, HEAD) against pw on pdl_setup_rows.csv (14 batch-1 rows:
#   1x1, 3x3 on KIND 2, and two C = 64 rows on KIND 5), exhaustive over three configurations (their winners in
#   run130) and every split, each build twice.
# PART=2 (about 450 s): tests/gpu_conv.sh on pw in fp16 then fp32 (3xTF32 runs conv_body_wg too).
# PART=3 (about 550 s): run115.sh PART=1 on pw: the 67 batch-1 and speech rows, default search (run130: batch 1
#   1.453x, speech 1.522x).
# One call each: mkdir -p $OUT && OUT=$OUT PART=N bash docs/results/conv/run135.sh. Carry dlbtune and .gpu.
# Build: make && mkdir -p .gpu/cpw && cp dlbtune .gpu/cpw/ && git stash && make && mkdir -p .gpu/chd && cp dlbtune
# .gpu/chd/ && git stash pop && make; bundle (../shared/gpu/bundle .gpu ./dlbtune).
. .gpu/env.sh
d=docs/results/conv
t0=$(date +%s)
case "${PART:-1}" in
1)
	exec > >(tee $OUT/log.txt) 2>&1
	nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
	OUT=$OUT A=hd BIN_A=.gpu/chd/dlbtune B=pw BIN_B=.gpu/cpw/dlbtune ROWS=$d/pdl_setup_rows.csv TMO=150 \
		ONLY='BM=64 BN=64 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2|BM=64 BN=32 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2|BM=256 BN=64 BK=64 WARPS_M=2 WARPS_N=1 STAGES=2 KIND=5' \
		bash $d/ab_direct.sh ;;
2)
	exec > >(tee $OUT/log.txt) 2>&1
	nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
	for p in fp16 fp32; do
		DLB_REQUIRE_GPU=1 GPU_CONV_PRECS=$p top_builddir=.gpu/cpw timeout 280 sh tests/gpu_conv.sh >$OUT/gpu_conv_$p.txt 2>&1
		echo "== gpu_conv $p (.gpu/cpw/dlbtune): exit $? at $(( $(date +%s) - t0 )) s"; tail -3 $OUT/gpu_conv_$p.txt
	done ;;
3)
	cp .gpu/cpw/dlbtune ./dlbtune && mkdir -p $OUT/p3 && OUT=$OUT/p3 PART=1 LIMIT=180 bash $d/run115.sh
	tar czf $OUT/p3.tgz -C $OUT p3 && rm -rf $OUT/p3 ;;
esac
