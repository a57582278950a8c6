#!/bin/bash
# Device calls 120 for convolution (issue 28), 2026-11-30 (a sixth session). The consumer warpgroups' index broadcast
# from lane 0 (wg: templates/conv_fp16.cu), so ptxas keeps the wgmma descriptors in uniform registers: on 42x10 c512
# k512 3x3 n2's KIND 2 candidates (compile --emit, cuobjdump) R2UR 565 -> 12 (64x128 STAGES 8), 301 -> 12 (64x64),
# 19 -> 12 (128x128 WARPS_M 2); the k-tile loop's four HGMMAs issue back to back from UIADD3-built descriptors.
# PART=1 (about 300 s): HEAD (.gpu/ck3, e809872's build) against wg (.gpu/cwg) on kind2_rows120.csv (the 10 KIND 2
#   speech rows, 4 batch-1 rows the suite's KIND 2 wins), KIND 2 alone, exhaustive, each build twice (ab_direct.sh);
#   then, only if wg/HEAD <= 0.99 and under 270 s have gone, tests/gpu_conv.sh fp32 on wg (the 3xTF32 kernels share the consumers' code).
#   Prediction: the WARPS_M 1 tiles (one consumer warpgroup: cst and the descriptors all in vector registers before)
#   2-5% faster, the WARPS_M 2 ones about 1%; geomean about 0.97.
# PART=2 (about 500 s): tests/gpu_conv.sh fp16 on wg; PART=3 fp32 alone, where PART=1 had no time left for it.
# If both pass and the A/B wins, wg lands.
# One call each: mkdir -p $OUT && OUT=$OUT PART=N bash docs/results/conv/run120.sh.
# Build: make; cp dlbtune .gpu/ck3/ (HEAD); apply the change, make, cp dlbtune .gpu/cwg/; bundle; carry dlbtune, .gpu.
. .gpu/env.sh
part=${PART:-1}
d=docs/results/conv
t0=$(date +%s)
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
if [ $part = 3 ]; then
	DLB_REQUIRE_GPU=1 GPU_CONV_PRECS=fp32 top_builddir=.gpu/cwg timeout 330 sh tests/gpu_conv.sh >$OUT/gpu_conv_fp32.txt 2>&1
	echo "== gpu_conv fp32 (.gpu/cwg/dlbtune): exit $? at $(( $(date +%s) - t0 )) s"; tail -6 $OUT/gpu_conv_fp32.txt
	exit 0
fi
if [ $part = 2 ]; then
	DLB_REQUIRE_GPU=1 GPU_CONV_PRECS=fp16 top_builddir=.gpu/cwg timeout 580 sh tests/gpu_conv.sh >$OUT/gpu_conv_fp16.txt 2>&1
	echo "== gpu_conv fp16 (.gpu/cwg/dlbtune): exit $? at $(( $(date +%s) - t0 )) s"; tail -6 $OUT/gpu_conv_fp16.txt
	exit 0
fi
OUT=$OUT A=hd BIN_A=.gpu/ck3/dlbtune B=wg BIN_B=.gpu/cwg/dlbtune ROWS=$d/kind2_rows120.csv ONLY="KIND=2" TMO=150 bash $d/ab_direct.sh |
	tee $OUT/ab.txt
g=$(sed -n 's/.*geomean wg\/hd \([0-9.]*\).*/\1/p' $OUT/ab.txt)
echo "geomean wg/hd: ${g:-none}"
el=$(( $(date +%s) - t0 ))
if [ -n "$g" ] && awk "BEGIN {exit !($g <= 0.99)}" && [ $el -lt 270 ]; then
	DLB_REQUIRE_GPU=1 GPU_CONV_PRECS=fp32 top_builddir=.gpu/cwg timeout 330 sh tests/gpu_conv.sh >$OUT/gpu_conv_fp32.txt 2>&1
	echo "== gpu_conv fp32 (.gpu/cwg/dlbtune): exit $? at $(( $(date +%s) - t0 )) s"; tail -6 $OUT/gpu_conv_fp32.txt
else
	echo "gpu_conv fp32 not run here (geomean ${g:-none}, $el s gone): PART=3 runs it"
fi
