#!/bin/bash
# Device calls 95 for convolution (issue 28), prepared 2026-11-29 (the sixth session that day), run in the seventh
# (one NVIDIA H200; logs/run95, docs/NOTES.md item 145). Both diffs below landed with the run's logs (they are
# in git's history). fp16's KIND 4 (docs/NOTES.md items 143-144): the direct kernel for NHWC
# with C % 8 == 0 and more than one tap, its fragments read with ldmatrix from a patch stored by phase of the
# stride (no bank conflicts), for DeepSpeech's 341x79 c32 10x5 stride 2 (C·R·S 1600), where the implicit GEMM
# reads each element of x about 12 times from L2 and cuDNN leads (run94: 0.73-0.91x at n4-n32).
# Build here, in this order:
#   git apply docs/results/conv/next_direct_ld.diff && make -j2 && mkdir -p .gpu/k4base && cp dlbtune .gpu/k4base/
#   git apply docs/results/conv/next_direct_ld_slab.diff && make -j2
# (.gpu/k4base/dlbtune: every filter in shared memory at once; ./dlbtune: the filters in slabs of 256 k, two
# buffers.) direct_ld_emulate.py checked both on the CPU first (with and without --slab). Carry dlbtune and .gpu.
# PART=1: gpu_conv fp16 (a KIND=4-alone section: 9 rows, each verified and won by KIND 4; KIND 4 also among every
#   candidate on the awkward rows) and gpu_conv fp32 (conv.c's direct_of is shared), side by side, slab build.
#   If fp16 fails in its KIND=4 section, PART=1 BIN=.gpu/k4base/dlbtune runs the same with the other build
#   (tests/gpu_conv.sh uses $top_builddir/dlbtune: BIN is copied over ./dlbtune first).
# PART=2: (a) KIND 4 alone, the two builds, on the 341x79 rows (speech_341.csv: training n4-n32, inference
#   n1-n4), fresh databases: which kernel, and how far from the implicit GEMM; (b) conv_training's 16 speech rows
#   and the 44 conv_inference_server rows KIND 4 applies to (direct_ld_rows.csv), default search, slab build.
#   Compare (b) with run94 and run84.
#   Prediction: slabs 1.1-1.5x faster than the base on the 341x79 rows (two blocks an SM, the filters' copies
#   behind the tensor cores); the training rows from 0.73-0.91x to 1.3-2.2x paired (n32: 162 µs -> 50-90 µs);
#   the speech rows 1.136x -> 1.3-1.5x; inference 341x79 n1 12.2 µs -> 5-8 µs. Elsewhere KIND 4 wins few rows.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
[ -n "$BIN" ] && cp "$BIN" ./dlbtune
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
3)
	# PART=1's fp16 ran out of its 560 s (side by side with fp32) before its KIND=4 section: that section alone,
	# the same commands as tests/gpu_conv.sh's, then PART=2 (a) and the speech rows (b)
	tmp=/tmp/k4; mkdir -p $tmp
	{ awk -F, 'NR == 1 || ($14 ~ /^NHWC/ && $3 % 8 == 0 && $6 * $7 > 1)' tests/conv_awkward.csv
	  tail -n +2 tests/conv_direct_ld.csv; } >$tmp/direct4.csv
	want=$(($(wc -l <$tmp/direct4.csv) - 1)); t0=$(date +%s)
	timeout -s INT -k 5 150 ./dlbtune --op conv --suite $tmp/direct4.csv --prec fp16 --only 'KIND=4' --strategy exhaustive \
		--fixed-samples 1 --db $tmp/db4 --csv -v >$OUT/out4.csv 2>$OUT/err4.txt; rc=$?
	echo "== fp16 KIND=4 alone: exit $rc in $(( $(date +%s) - t0 )) s: $(grep -c " ok, 0 wrong, 0 faults)" $OUT/err4.txt) of $want rows verified without a wrong answer or fault, $(grep -c KIND=4 $OUT/out4.csv) won by KIND 4"
	grep " ok, .* wrong, .* faults)" $OUT/err4.txt | grep -v " 0 wrong, 0 faults" | cut -c1-200
	;;&
2|3)
	# PART=4 (below) is (b)'s inference rows alone; the call that ran it typed the same commands inline
	for b in base slab; do
		bin=./dlbtune; [ $b = base ] && bin=.gpu/k4base/dlbtune
		timeout -s INT -k 10 100 $bin --op conv --prec fp16 --layout NHWC --suite $d/speech_341.csv --only 'KIND=4' \
			--db /tmp/db341$b --csv >$OUT/k4_$b.csv 2>/dev/null
		echo "== KIND 4 alone, $b build, 341x79 rows: exit $?"
	done
	t0=$(date +%s)
	timeout -s INT -k 10 200 ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/speech_training.csv --db /tmp/dbH -v \
		--csv >$OUT/speech_fp16.csv 2>$OUT/speech_fp16.err
	echo "== conv_training speech rows fp16 NHWC: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/speech_fp16.err) rows"
	;;&
2|4)
	t0=$(date +%s)
	timeout -s INT -k 10 260 ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/direct_ld_rows.csv --db /tmp/dbI -v \
		--csv >$OUT/inference_ld.csv 2>$OUT/inference_ld.err
	echo "== conv_inference_server KIND 4 rows fp16 NHWC: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/inference_ld.err) rows"
	;;&
2|3|4)
	grep -E "wrong|fault" $OUT/*.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
	grep -c "KIND=4" $OUT/speech_fp16.csv $OUT/inference_ld.csv 2>/dev/null
	gzip -f $OUT/*.err
	;;
esac
