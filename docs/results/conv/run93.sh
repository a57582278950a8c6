#!/bin/bash
# Device call 93 for convolution (issue 28), prepared 2026-11-29 (the fifth session that day; not run: the session's
# device time was spent on run90-92). Apply next_ypix.diff first (docs/NOTES.md item 140): every NCHW epilogue
# (fp32 KIND 0, 2, 3; fp16's store_tile, direct, cluster finish and wgmma epilogues; int8; conv_reduce) decoded
# a pixel's image with a 64-bit division once a stored element; now once a pixel, and KIND 0 stores a thread's TM
# pixels as one 8- or 16-byte store where P·Q % TM == 0. Static: KIND 2's NCHW3xTF32-1x1 conv_nchw 6088 -> 2760
# SASS instructions, KIND 0's 2376 -> 1704, KIND 3's 4056 -> 2256; int8 NCHW16 up to 12048 -> 5904.
# Apply next_tf32_bn32.diff too (item 141): the 3xTF32 wgmma tiles 32 filters wide (BN 32, m64n32k8), for the five
# conv_training rows with 32 filters that run BN 64 now (341x79 c32 k32 at n4-n32, 28x28 c192 k32 5x5), as fp16
# got in run55 (there 1.26-1.31x on those layers). gpu_conv fp32 verifies its 12 new candidates with the rest.
# Three calls' worth, each under 600 s. Carry dlbtune, .gpu.
# PART=1: gpu_conv fp32 (every fp32 candidate and split on the 23 awkward rows: NCHW with P·Q odd, 2 mod 4 and a
#   multiple of 8, 1 and 3 images, split-K through conv_reduce) and conv_training fp32 NCHW on the rows with
#   C·R·S <= 576 (small_crs_training.csv, 53 rows), default search, fresh database.
#   Prediction: 0 wrong; those rows from run91's 1.048x paired to 1.15-1.3x (the epilogue was a third to a half of
#   a thread's instructions there).
# PART=2: conv_training fp32 NCHW whole (run91: 1.295x). Prediction 1.33-1.40x; the five 32-filter rows won by a
#   BN 32 tile, 1.15-1.35x faster than run91's BN 64 (28x28 c192 k32 0.41x -> 0.5-0.55x).
# PART=3: gpu_conv int8 and fp16 (side by side; if the limit cuts fp16 in its KIND 3 section, run92.sh PART=2 runs
#   that section alone).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
case "${PART:-1}" in
1)
	t0=$(date +%s)
	GPU_CONV_PRECS=fp32 DLB_REQUIRE_GPU=1 timeout -s INT -k 5 320 sh tests/gpu_conv.sh >$OUT/gpu_conv_fp32.txt 2>&1
	echo "== gpu_conv fp32: exit $? in $(( $(date +%s) - t0 )) s: $(tail -n 1 $OUT/gpu_conv_fp32.txt)"
	t0=$(date +%s)
	timeout -s INT -k 10 300 ./dlbtune --op conv --prec fp32 --layout NCHW --suite $d/small_crs_training.csv --db /tmp/dbS -v \
		--csv >$OUT/small_crs.csv 2>$OUT/small_crs.err
	echo "== small C·R·S rows: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/small_crs.err) rows"
	grep -E "wrong|fault" $OUT/small_crs.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
	gzip -f $OUT/small_crs.err
	;;
2)
	t0=$(date +%s)
	timeout -s INT -k 10 540 ./dlbtune --op conv --prec fp32 --layout NCHW --suite training --db /tmp/dbT -v \
		--csv >$OUT/training_fp32.csv 2>$OUT/training_fp32.err
	echo "== conv_training fp32 NCHW: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/training_fp32.err) rows"
	grep -E "wrong|fault" $OUT/training_fp32.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
	gzip -f $OUT/training_fp32.err
	;;
3)
	pids=
	for p in int8 fp16; do
		( t0=$(date +%s); GPU_CONV_PRECS=$p DLB_REQUIRE_GPU=1 timeout -s INT -k 5 560 sh tests/gpu_conv.sh >$OUT/gpu_conv_$p.txt 2>&1
		  echo "== gpu_conv $p (parallel with the other): exit $? in $(( $(date +%s) - t0 )) s: $(tail -n 1 $OUT/gpu_conv_$p.txt)" ) &
		pids="$pids $!"
	done
	# By pid: a bare wait would also wait for the tee above, which never ends (run93's PART=3 ran to the limit).
	wait $pids
	;;
esac
