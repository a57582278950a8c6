#!/bin/bash
# Device calls 105 for convolution (issue 28), prepared 2026-11-29 (the ninth session; its device time was spent
# on run101-104).
# Run 2026-11-29 (the tenth session), one NVIDIA H200: PART=1 not run (run106 PART=1's gpu_conv fp16 covered the
# 128-k passes); PART=2 run with .gpu/k4wg128 holding the PDL build (run106's, landed) and ./dlbtune that build +
# k4_pass256_tried.diff. Logs in logs/run105. Not kept (docs/NOTES.md item 157).
# PART=1: gpu_conv fp16 alone on the landed build (8ca5e74: KIND 4's 128-k passes, run104; the test has not run on
#   it: run104 checked KIND 4's section only, the change being inside #if K4WG), about 450 s.
# PART=2: k4_pass256_tried.diff, passes of 256 k where BN is 32 (a whole slab a pass; docs/NOTES.md item 154):
#   (1) KIND 4 alone, exhaustive, on its 9 test rows, 0 wrong? (2) KIND 4 alone on the six 341x79 rows, the two
#   builds twice, alternating; (3) ncu's source page of the n32 winner; (4) conv_training's 16 speech rows.
# Build here:
#   make -j2 && mkdir -p .gpu/k4wg128 && cp dlbtune .gpu/k4wg128/              (the landed build)
#   git apply docs/results/conv/k4_pass256_tried.diff && make -j2               (./dlbtune: 256-k passes)
# Carry dlbtune and .gpu. PART=1 runs the test on .gpu/k4wg128's binary (top_builddir).
# Prediction (PART=2): the pass 272 instructions for 256 k against 2 x 144, two waits a slab instead of four:
#   1.01-1.04x on the 341x79 rows n4-n32, the speech rows 1.271x -> 1.27-1.29x.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
p341="--w 341 --h 79 --c 32 --k 32 --s 10 --r 5 --stride-w 2 --stride-h 2"
case "${PART:-1}" in
1)
	t0=$(date +%s)
	top_builddir=.gpu/k4wg128 GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -s INT -k 5 580 sh tests/gpu_conv.sh >$OUT/gpu_conv_fp16.txt 2>&1
	echo "== gpu_conv fp16 (landed build): exit $? in $(( $(date +%s) - t0 )) s: $(tail -n 1 $OUT/gpu_conv_fp16.txt)"
	grep "alone" $OUT/gpu_conv_fp16.txt
	gzip -f $OUT/gpu_conv_fp16.txt
	;;
2)
	tmp=/tmp/k4; mkdir -p $tmp $tmp/ab
	{ awk -F, 'NR == 1 || ($14 ~ /^NHWC/ && $3 % 8 == 0 && $6 * $7 > 1)' tests/conv_awkward.csv
	  tail -n +2 tests/conv_direct_ld.csv; } >$tmp/direct4.csv
	want=$(($(wc -l <$tmp/direct4.csv) - 1)); t0=$(date +%s)
	timeout -s INT -k 5 60 ./dlbtune --op conv --suite $tmp/direct4.csv --prec fp16 --only 'KIND=4' --strategy exhaustive \
		--fixed-samples 1 --db $tmp/db4 --csv -v >$OUT/out4.csv 2>$OUT/err4.txt; rc=$?
	echo "== (1) fp16 KIND=4 alone: exit $rc in $(( $(date +%s) - t0 )) s: $(grep -c " ok, 0 wrong, 0 faults)" $OUT/err4.txt) of $want rows verified without a wrong answer or fault, $(grep -c KIND=4 $OUT/out4.csv) won by KIND 4"
	grep " ok, .* wrong, .* faults)" $OUT/err4.txt | grep -v " 0 wrong, 0 faults" | cut -c1-200
	for b in wg128 wg256 wg128b wg256b; do
		bin=./dlbtune; case $b in wg128*) bin=.gpu/k4wg128/dlbtune ;; esac
		t0=$(date +%s)
		timeout -s INT -k 5 40 $bin --op conv --prec fp16 --layout NHWC --suite $d/speech_341.csv --only 'KIND=4' \
			--db /tmp/db341$b --csv >$tmp/ab/k4_$b.csv 2>/dev/null
		echo "== (2) KIND 4 alone, $b: exit $? in $(( $(date +%s) - t0 )) s"
		python3 -c "
import csv
for r in csv.DictReader(open('$tmp/ab/k4_$b.csv')):
    print('  n%-3s %8s us  %s' % (r['n'], r['tuned_us'], r['best_config'].replace(' WARPS_N=1 STAGES=2 KIND=4', '')))"
	done
	tar -C $tmp/ab -czf $OUT/ab.tgz .
	t0=$(date +%s)
	timeout -k 5 120 ncu --clock-control none --target-processes all -k regex:conv_nhwc --launch-skip 2 --launch-count 1 \
		--section SourceCounters --page source --print-source sass --csv ./dlbtune --op conv --prec fp16 --layout NHWC \
		$p341 --n 32 --only 'BM=128 BN=32 BK=16 WARPS_M=4 WARPS_N=1 STAGES=2 KIND=4' --power-ms 0 --fixed-samples 2 \
		--paired 0 --db /tmp/db_src32 >$OUT/k4_n32_source.csv 2>$OUT/k4_n32_source.err
	echo "== (3) n32 source page: exit $? in $(( $(date +%s) - t0 )) s"
	python3 docs/results/gemm_fp32/ncu_source.py $OUT/k4_n32_source.csv | head -24
	t0=$(date +%s)
	timeout -s INT -k 10 120 ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/speech_training.csv --db /tmp/dbH -v \
		--csv >$OUT/speech_fp16.csv 2>$OUT/speech_fp16.err
	echo "== (4) conv_training speech rows fp16 NHWC: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/speech_fp16.err) rows"
	python3 -c "
import csv, math
rows = list(csv.DictReader(open('$OUT/speech_fp16.csv')))
print('  geomean paired %.3f over %d rows, %d verified, %d won by KIND 4' % (math.exp(sum(math.log(float(r['paired_speedup'])) for r in rows) / len(rows)), len(rows), sum(r['verified'] == '1' for r in rows), sum('KIND=4' in r['best_config'] for r in rows)))"
	gzip -f $OUT/*.err $OUT/*source.csv
	;;
esac
