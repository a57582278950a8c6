#!/bin/bash
# Device calls 143 for convolution (issue 28), prepared 2026-12-01 (a thirteenth session), not run: what run142's
# build (the one-sided cluster finish, docs/NOTES.md items 239-242) still needs before batch 1 is called done.
# First apply next_cluster_compact.diff (docs/NOTES.md item 243: the landed finish compiles 2.2x as slowly)
# and rebuild, if gpu_conv passes on it, it lands.
# PART=1: tests/gpu_conv.sh fp16 whole, its kernels kept in /tmp/kc143 (GPU_CONV_KCACHE), so that a call cut while
#   compiling cold (run142 PART=2: more than 520 s) leaves them to the next; run it again at once (the machine
#   must stay warm: within 30 s) until it reports; then PART=2.
# PART=2: gpu_conv fp32 whole, the same way.
# Before PART=3, run142.sh PART=4 with .gpu/hd/dlbtune built from cceee9c (the landed finish) against the compact
#   build: cluster splits and plain launches within 2% of it, or the compact form does not land.
# PART=3: the 67 batch-1 and speech rows of conv_inference_server in one run on this build, fp16 NHWC, default
#   search, fresh databases, as run139 (run115.sh PART=1, thirds of up to 180 s).
#   Prediction: batch 1 1.51-1.54x (run142's 11 rows with run139's other 44: 1.526x), speech 1.51-1.54x.
# One call each: mkdir -p $OUT && OUT=$OUT PART=n bash docs/results/conv/run143.sh. Carry dlbtune and .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
case "${PART:-1}" in
1 | 2)
	prec=fp16; [ "$PART" = 2 ] && prec=fp32
	DLB_REQUIRE_GPU=1 GPU_CONV_PRECS=$prec GPU_CONV_KCACHE=/tmp/kc143 timeout ${T:-560} sh tests/gpu_conv.sh \
		>$OUT/gpu_conv_$prec.txt 2>&1
	echo "== gpu_conv $prec: exit $? at $(( $(date +%s) - t0 )) s"; tail -30 $OUT/gpu_conv_$prec.txt
	;;
3)
	mkdir -p $OUT/p && OUT=$OUT/p PART=1 LIMIT=180 bash docs/results/conv/run115.sh
	;;
esac
