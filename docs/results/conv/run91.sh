#!/bin/bash
# Device call 91 for convolution (issue 28), prepared 2026-11-29 (the fourth session that day; not run: the session's
# device time was spent). Two calls' worth; run with PART=1, then PART=2 (each under 600 s).
# PART=1: conv_training fp32 NCHW whole, default search, fresh database, on c64ae56's build (the FFMA kernel's X2D
#   loads on 1x1 layers): one run for the number run86-89 give by substitution (1.286x paired).
#   Prediction: 1.27-1.30x, 70-72 rows won, every row verified.
# PART=2: gpu_conv fp32 (every fp32 candidate and split on tests/conv_awkward.csv; its 1x1 rows take X2D) and
#   gpu_conv fp16 (the cluster build's first whole fp16 run; run85 verified KIND 1 and 2 alone).
# Carry dlbtune, .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
if [ "${PART:-1}" = 1 ]; then
	t0=$(date +%s)
	timeout -s INT -k 10 ${SUITE_S:-540} ./dlbtune --op conv --prec fp32 --layout NCHW --suite training --db /tmp/dbT -v \
		--csv >$OUT/training_fp32.csv 2>$OUT/training_fp32.err
	echo "== conv_training fp32 NCHW: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/training_fp32.err) rows"
	grep -E "wrong|fault" $OUT/training_fp32.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
	gzip -f $OUT/training_fp32.err
else
	for p in fp32 fp16; do
		t0=$(date +%s)
		GPU_CONV_PRECS=$p DLB_REQUIRE_GPU=1 sh tests/gpu_conv.sh >$OUT/gpu_conv_$p.txt 2>&1
		echo "== gpu_conv $p: exit $? in $(( $(date +%s) - t0 )) s: $(tail -n 1 $OUT/gpu_conv_$p.txt)"
	done
fi
