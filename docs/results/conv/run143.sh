#!/bin/bash
# Device calls 143 for convolution (issue 28), prepared 2026-12-01 (a thirteenth session), run 2026-12-01 (a
# fourteenth session) on one NVIDIA H200 (driver 580.159.04, 1980 MHz), six calls on one machine (the last on a
# fresh one), logs in logs/run143 (docs/NOTES.md items 244-246):
#   1. OUT=$OUT PART=4 bash docs/results/conv/run142.sh with ./dlbtune = next_cluster_compact.diff applied to
#      69fa95c, .gpu/hd/dlbtune = 69fa95c (the landed finish)                                   -> ab
#      The compact form's cluster splits 1.271 of the landed one's time (40 variants), plain launches 1.005 (62):
#      it does not land; the rest ran on 69fa95c (./dlbtune = .gpu/hd/dlbtune).
#   2. PART=3 (LIMIT=180)                                                                      -> part3
#      The first third was cut at 180 s after 17 of its 23 rows; t4's own files did not come back (8 files a
#      call), batch1_speech.csv holds them.
#   3. the first third's 23 rows again on its database (/tmp/dbb1s_2: the 17 stored rows read back, the 6 others
#      searched): part3/p/t2/b1s_2r.csv; part3/batch1_speech67.csv joins all 67 rows.
#   4. PART=1 (T=570): gpu_conv fp16 passed in 412 s, cold                                     -> part1
#   5. PART=2 (T=500): gpu_conv fp32 passed in 330 s                                           -> part2
#   6. DLB_REQUIRE_GPU=1 GPU_CONV_PRECS=int8 sh tests/gpu_conv.sh: passed in 279 s             -> int8
# What it was to do, as prepared:
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
