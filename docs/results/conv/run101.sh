#!/bin/bash
# Device calls 101 for convolution (issue 28), prepared 2026-11-29 (the eighth session that day; not run: its device
# time was spent on run97-100). fp16's KIND 4 with wgmma (docs/NOTES.md item 151, next_k4_wgmma.diff): where the
# block is one warpgroup (WARPS_M 4) and BN is 32 or 64, the filters are read by the tensor cores from the slab
# (stored as KIND 1's swizzled 128-byte lines) and x's fragments come from ldmatrix into registers (wgmma with A
# from registers), 64 k a pass; the other KIND 4 configurations keep mma.sync.
# Build here:
#   make -j2 && mkdir -p .gpu/k4copies && cp dlbtune .gpu/k4copies/      (what landed: 0dbcb46's kernels)
#   git apply docs/results/conv/next_k4_wgmma.diff && make -j2           (./dlbtune: K4WG)
# Carry dlbtune and .gpu.
# PART=1 (about 150 s): (1) KIND 4 alone, exhaustive (every candidate), on its 9 test rows, ./dlbtune: 0 wrong?
#   (2) KIND 4 alone on the six 341x79 rows, default search, fresh databases, the two builds; (3) ncu on K4WG's
#   n32 winner (run98's sections).
# PART=2 (about 330 s): conv_training's 16 speech rows and the 44 inference rows KIND 4 applies to, fp16 NHWC,
#   default search, ./dlbtune (the landed build: 1.241x, run100, and 1.252x, run97).
# PART=3: gpu_conv fp16 alone (418 s in run97).
# Land the diff only with PART=1's 9 of 9 and PART=3 passing.
# Prediction: the mma loop's instructions drop by about 60% (per 64 k and two strips: 8 ldmatrix and 8 wgmma
#   against 16 ldmatrix and 32 mma.sync); 1.1-1.5x on the 341x79 rows n8-n32 (n32 108.8 -> 72-98 µs), n1-n4
#   within 10%; the speech rows 1.24x -> 1.3-1.4x.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
p341="--w 341 --h 79 --c 32 --k 32 --s 10 --r 5 --stride-w 2 --stride-h 2"
case "${PART:-1}" in
1)
	tmp=/tmp/k4; mkdir -p $tmp $tmp/ab
	{ awk -F, 'NR == 1 || ($14 ~ /^NHWC/ && $3 % 8 == 0 && $6 * $7 > 1)' tests/conv_awkward.csv
	  tail -n +2 tests/conv_direct_ld.csv; } >$tmp/direct4.csv
	want=$(($(wc -l <$tmp/direct4.csv) - 1)); t0=$(date +%s)
	timeout -s INT -k 5 90 ./dlbtune --op conv --suite $tmp/direct4.csv --prec fp16 --only 'KIND=4' --strategy exhaustive \
		--fixed-samples 1 --db $tmp/db4 --csv -v >$OUT/out4.csv 2>$OUT/err4.txt; rc=$?
	echo "== (1) fp16 KIND=4 alone: exit $rc in $(( $(date +%s) - t0 )) s: $(grep -c " ok, 0 wrong, 0 faults)" $OUT/err4.txt) of $want rows verified without a wrong answer or fault, $(grep -c KIND=4 $OUT/out4.csv) won by KIND 4; $(grep -c 'WARPS_M=4' $OUT/out4.csv) by WARPS_M 4"
	grep " ok, .* wrong, .* faults)" $OUT/err4.txt | grep -v " 0 wrong, 0 faults" | cut -c1-200
	for b in copies wg; do
		bin=./dlbtune; [ $b = copies ] && bin=.gpu/k4copies/dlbtune
		t0=$(date +%s)
		timeout -s INT -k 5 45 $bin --op conv --prec fp16 --layout NHWC --suite $d/speech_341.csv --only 'KIND=4' \
			--db /tmp/db341$b --csv >$tmp/ab/k4_$b.csv 2>/dev/null
		echo "== (2) KIND 4 alone, $b: exit $? in $(( $(date +%s) - t0 )) s"
		python3 -c "
import csv
for r in csv.DictReader(open('$tmp/ab/k4_$b.csv')):
    print('  n%-3s %8s us  %s' % (r['n'], r['tuned_us'], r['best_config'].replace(' WARPS_N=1 STAGES=2 KIND=4', '')))"
	done
	tar -C $tmp/ab -czf $OUT/ab.tgz .
	t0=$(date +%s)
	timeout -k 5 120 ncu --target-processes all -k regex:'conv_nhwc' -c 1 --section SpeedOfLight --section WarpStateStats \
		--section SchedulerStats --section Occupancy --section MemoryWorkloadAnalysis --section LaunchStats \
		--section ComputeWorkloadAnalysis --section InstructionStats --section SourceCounters ./dlbtune --op conv \
		--prec fp16 --layout NHWC $p341 --n 32 --only 'BM=128 BN=32 BK=16 WARPS_M=4 WARPS_N=1 STAGES=2 KIND=4' \
		--db /tmp/ncu4 >$OUT/ncu_k4.txt 2>&1
	echo "== (3) ncu: exit $? in $(( $(date +%s) - t0 )) s"
	grep -E "Duration|Executed Ipc A|Issue Slots Busy|Registers Per|Achieved Active Warps|Eligible Warps|Executed Instructions  " $OUT/ncu_k4.txt | head -12
	gzip -f $OUT/err4.txt $OUT/ncu_k4.txt
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
	python3 -c "
import csv, math
for f in ('speech_fp16', 'inference_ld'):
    rows = list(csv.DictReader(open('$OUT/%s.csv' % f)))
    print('  %s: geomean paired %.3f over %d rows, %d verified, %d won by KIND 4' % (f, math.exp(sum(math.log(float(r['paired_speedup'])) for r in rows) / len(rows)), len(rows), sum(r['verified'] == '1' for r in rows), sum('KIND=4' in r['best_config'] for r in rows)))"
	gzip -f $OUT/*.err
	;;
3)
	t0=$(date +%s)
	GPU_CONV_PRECS=fp16 DLB_REQUIRE_GPU=1 timeout -s INT -k 5 580 sh tests/gpu_conv.sh >$OUT/gpu_conv_fp16.txt 2>&1
	echo "== gpu_conv fp16: exit $? in $(( $(date +%s) - t0 )) s: $(tail -n 1 $OUT/gpu_conv_fp16.txt)"
	grep "alone" $OUT/gpu_conv_fp16.txt
	gzip -f $OUT/gpu_conv_fp16.txt
	;;
esac
