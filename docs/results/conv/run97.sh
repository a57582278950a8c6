#!/bin/bash
# Ran on 2026-11-29 in the eighth session that day (one NVIDIA H200): logs/run97, docs/NOTES.md item 149.
# Device calls 97 for convolution (issue 28), prepared 2026-11-29 (the seventh session that day; not run: its device
# time ran out). fp16's KIND 4 twice changed (docs/NOTES.md items 146 and 148):
#  - next_k4_copies.diff: cheaper copies. run96's ncu had the kernel at 1.95 IPC with the ALU the busiest pipe; its
#    SASS spent about 100 instructions a 16-byte patch copy (four runtime divisions) and 45 a filter copy (L a
#    runtime value), more than its mma loop. The patch's chunks are now stepped with carries (j / str_w by a
#    multiply-high) and the slabs' copies use DSLAB, a constant.
#  - next_k4_split.diff (on top): split-K for KIND 4 where its tiles are few (341x79 n1: 55 tiles for 132 SMs),
#    each split a range of k with its own slabs and offsets, the partial sums to conv_reduce.
# Build here, in this order (021c5dc's KIND 4 has 3e49ca4's SASS, NOTES item 147):
#   make -j2 && mkdir -p .gpu/k4slab && cp dlbtune .gpu/k4slab/
#   git apply docs/results/conv/next_k4_copies.diff && make -j2 && mkdir -p .gpu/k4copies && cp dlbtune .gpu/k4copies/
#   git apply docs/results/conv/next_k4_split.diff && make -j2
# (.gpu/k4slab: run95's kernel; .gpu/k4copies: the cheaper copies; ./dlbtune: both diffs.) Carry dlbtune and .gpu.
# PART=1 (about 120 s): (1) KIND 4 alone, exhaustive (every candidate and split), on its 9 test rows
#   (tests/gpu_conv.sh's section), ./dlbtune; (2) KIND 4 alone on the six 341x79 rows (speech_341.csv), fresh
#   databases, the three builds.
# PART=2 (about 370 s): conv_training's 16 speech rows and the 44 inference rows KIND 4 applies to
#   (direct_ld_rows.csv), fp16 NHWC, default search, ./dlbtune (run95: 1.202x and 1.232x).
# PART=3: gpu_conv fp16 alone (its KIND=4 section included); PART=4: gpu_conv fp32 (conv.c's direct launch changed).
# Land the diffs only with PART=1's 9 of 9 and PART=3 passing.
# Prediction: the copies 1.15-1.4x on the 341x79 rows (n32 135 -> 95-115 µs); split-K at n1 and n2 (12.3 and
#   16.0 µs) to 7-9 and 10-12 µs; the speech rows 1.202x -> 1.25-1.35x.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
case "${PART:-1}" in
1)
	tmp=/tmp/k4; mkdir -p $tmp
	{ awk -F, 'NR == 1 || ($14 ~ /^NHWC/ && $3 % 8 == 0 && $6 * $7 > 1)' tests/conv_awkward.csv
	  tail -n +2 tests/conv_direct_ld.csv; } >$tmp/direct4.csv
	want=$(($(wc -l <$tmp/direct4.csv) - 1)); t0=$(date +%s)
	timeout -s INT -k 5 90 ./dlbtune --op conv --suite $tmp/direct4.csv --prec fp16 --only 'KIND=4' --strategy exhaustive \
		--fixed-samples 1 --db $tmp/db4 --csv -v >$OUT/out4.csv 2>$OUT/err4.txt; rc=$?
	echo "== (1) fp16 KIND=4 alone: exit $rc in $(( $(date +%s) - t0 )) s: $(grep -c " ok, 0 wrong, 0 faults)" $OUT/err4.txt) of $want rows verified without a wrong answer or fault, $(grep -c KIND=4 $OUT/out4.csv) won by KIND 4; $(grep -c 'SPLITK=[2-9]' $OUT/out4.csv) won by a split"
	grep " ok, .* wrong, .* faults)" $OUT/err4.txt | grep -v " 0 wrong, 0 faults" | cut -c1-200
	for b in slab copies split; do
		bin=./dlbtune; [ $b != split ] && bin=.gpu/k4$b/dlbtune
		t0=$(date +%s)
		timeout -s INT -k 5 45 $bin --op conv --prec fp16 --layout NHWC --suite $d/speech_341.csv --only 'KIND=4' \
			--db /tmp/db341$b --csv >$OUT/k4_$b.csv 2>/dev/null
		echo "== (2) KIND 4 alone, $b: exit $? in $(( $(date +%s) - t0 )) s"
		# as run; the quoted best_config holds commas, so these columns were the wrong ones (logs/run97/part1 has the CSVs)
		cut -d, -f4,18,20 $OUT/k4_$b.csv | sed 's/ WARPS_N=1 STAGES=2 KIND=4//'
	done
	gzip -f $OUT/err4.txt
	;;
2)
	t0=$(date +%s)
	timeout -s INT -k 10 170 ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/speech_training.csv --db /tmp/dbH -v \
		--csv >$OUT/speech_fp16.csv 2>$OUT/speech_fp16.err
	echo "== conv_training speech rows fp16 NHWC: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/speech_fp16.err) rows"
	t0=$(date +%s)
	timeout -s INT -k 10 330 ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/direct_ld_rows.csv --db /tmp/dbI -v \
		--csv >$OUT/inference_ld.csv 2>$OUT/inference_ld.err
	echo "== conv_inference_server KIND 4 rows fp16 NHWC: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/inference_ld.err) rows"
	grep -hE "wrong|fault" $OUT/*.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
	grep -c "KIND=4" $OUT/speech_fp16.csv $OUT/inference_ld.csv
	gzip -f $OUT/*.err # four files: under the call's limit of 8
	;;
3|4)
	p=fp16; [ $PART = 4 ] && p=fp32
	t0=$(date +%s)
	GPU_CONV_PRECS=$p DLB_REQUIRE_GPU=1 timeout -s INT -k 5 580 sh tests/gpu_conv.sh >$OUT/gpu_conv_$p.txt 2>&1
	echo "== gpu_conv $p: exit $? in $(( $(date +%s) - t0 )) s: $(tail -n 1 $OUT/gpu_conv_$p.txt)"
	grep "alone" $OUT/gpu_conv_$p.txt
	gzip -f $OUT/gpu_conv_$p.txt
	;;
esac
