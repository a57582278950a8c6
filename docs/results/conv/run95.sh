#!/bin/bash
# Device call 95 for convolution (issue 28), prepared 2026-11-29 (the sixth session that day; not run: the session's
# device time went to run93-94). Apply next_direct_ld.diff first (docs/NOTES.md item 143): fp16's KIND 4, the
# direct kernel for NHWC with C % 8 == 0 and more than one tap, its fragments read with ldmatrix from a patch
# stored by phase of the stride (no bank conflicts), filled by cp.async, up to 220 KiB of shared memory, so it
# reaches C·R·S of a few thousand: DeepSpeech's 341x79 c32 10x5 stride 2 (C·R·S 1600), where the implicit GEMM
# reads each element of x about 12 times from L2 and cuDNN leads (run94: 0.73-0.91x at n4-n32).
# direct_ld_emulate.py checked the kernel's layout and fragments on the CPU first (200 shapes, 0 wrong).
# Build here, carry dlbtune and .gpu. Two calls, each under 600 s.
# PART=1: gpu_conv fp16 (its new KIND=4-alone section: 9 rows, each verified and won by KIND 4; and KIND 4 among
#   every candidate on the awkward rows) and gpu_conv fp32 (conv.c's direct_of is shared), side by side.
# PART=2: conv_training's 16 speech rows (speech_training.csv) and the 30 conv_inference_server rows KIND 4
#   applies to (direct_ld_rows.csv: 3x3, 5x5 and 10x5 NHWC layers with C % 8 == 0, n 1-4), fp16 NHWC, default
#   search, fresh databases. Compare with run94 and run84.
#   Prediction: the 341x79 c32 training rows from 0.73-0.91x to 1.2-2.0x paired (n32: 162 µs -> 55-100 µs; a block
#   holds 164 KB, one an SM, its patch and filters loaded before any mma); the speech rows 1.136x -> 1.25-1.45x;
#   inference 341x79 n1 12.2 µs -> 6-9 µs. Elsewhere KIND 4 wins few rows: on 3x3 layers with C >= 64 the
#   filters fill shared memory (BN x C·R·S halves) and one block an SM cannot hide its load.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
case "${PART:-1}" in
1)
	pids=
	for p in fp16 fp32; do
		( t0=$(date +%s); GPU_CONV_PRECS=$p DLB_REQUIRE_GPU=1 timeout -s INT -k 5 560 sh tests/gpu_conv.sh >$OUT/gpu_conv_$p.txt 2>&1
		  echo "== gpu_conv $p (side by side): exit $? in $(( $(date +%s) - t0 )) s: $(tail -n 1 $OUT/gpu_conv_$p.txt)"
		  grep "KIND=[34] alone" $OUT/gpu_conv_$p.txt ) &
		pids="$pids $!"
	done
	wait $pids # not a bare wait: it would wait for the tee above too
	;;
2)
	t0=$(date +%s)
	timeout -s INT -k 10 250 ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/speech_training.csv --db /tmp/dbH -v \
		--csv >$OUT/speech_fp16.csv 2>$OUT/speech_fp16.err
	echo "== conv_training speech rows fp16 NHWC: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/speech_fp16.err) rows"
	t0=$(date +%s)
	timeout -s INT -k 10 290 ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/direct_ld_rows.csv --db /tmp/dbI -v \
		--csv >$OUT/inference_ld.csv 2>$OUT/inference_ld.err
	echo "== conv_inference_server KIND 4 rows fp16 NHWC: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/inference_ld.err) rows"
	grep -E "wrong|fault" $OUT/*.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
	grep -c "KIND=4" $OUT/speech_fp16.csv $OUT/inference_ld.csv
	gzip -f $OUT/*.err
	;;
esac
