#!/bin/bash
# Device call 104 for convolution (issue 28), 2026-11-29 (the ninth session): KIND 4's wgmma passes of 128 k
# (docs/NOTES.md item 153). run103's source page put 55% of the n32 winner's stall samples in the 64-k pass loop,
# a fifth of them on its two waits (the fragments before WARPGROUP.ARRIVE, the tensor cores before the next
# ldmatrix). Passes of 128 k (64 at a slab's end) wait half as often; the descriptor is computed once a pass
# (the pass 144 instructions for 128 k, against 2 x 95; registers 122 -> 156 on the 341x79 winner, no spills).
# Build here:
#   git stash; make -j2; mkdir -p .gpu/k4wg64; cp dlbtune .gpu/k4wg64/; git stash pop; make -j2
#   (.gpu/k4wg64: 4e2025f, 64-k passes; ./dlbtune: 128-k passes)
# Carry dlbtune and .gpu.
# (1) KIND 4 alone, exhaustive (every candidate), on its 9 test rows, ./dlbtune: 0 wrong? (gpu_conv's KIND 4
#     section; the change is inside #if K4WG, so every other candidate's source is the one gpu_conv passed in run101)
# (2) KIND 4 alone on the six 341x79 rows, default search, fresh databases, the two builds twice, alternating.
# (3) conv_training's 16 speech rows, fp16 NHWC, default search, ./dlbtune (run101: 1.259x).
# Prediction: 1.05-1.12x on the 341x79 rows n4-n32 (n32 108 -> 96-103 µs), n1-n2 within 5%; the speech rows
#   1.26x -> 1.28-1.30x.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
tmp=/tmp/k4; mkdir -p $tmp $tmp/ab
{ awk -F, 'NR == 1 || ($14 ~ /^NHWC/ && $3 % 8 == 0 && $6 * $7 > 1)' tests/conv_awkward.csv
  tail -n +2 tests/conv_direct_ld.csv; } >$tmp/direct4.csv
want=$(($(wc -l <$tmp/direct4.csv) - 1)); t0=$(date +%s)
timeout -s INT -k 5 60 ./dlbtune --op conv --suite $tmp/direct4.csv --prec fp16 --only 'KIND=4' --strategy exhaustive \
	--fixed-samples 1 --db $tmp/db4 --csv -v >$OUT/out4.csv 2>$OUT/err4.txt; rc=$?
echo "== (1) fp16 KIND=4 alone: exit $rc in $(( $(date +%s) - t0 )) s: $(grep -c " ok, 0 wrong, 0 faults)" $OUT/err4.txt) of $want rows verified without a wrong answer or fault, $(grep -c KIND=4 $OUT/out4.csv) won by KIND 4; $(grep -c 'WARPS_M=4' $OUT/out4.csv) by WARPS_M 4"
grep " ok, .* wrong, .* faults)" $OUT/err4.txt | grep -v " 0 wrong, 0 faults" | cut -c1-200
for b in wg64 wg128 wg64b wg128b; do
	bin=./dlbtune; case $b in wg64*) bin=.gpu/k4wg64/dlbtune ;; esac
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
timeout -s INT -k 10 110 ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/speech_training.csv --db /tmp/dbH -v \
	--csv >$OUT/speech_fp16.csv 2>$OUT/speech_fp16.err
echo "== (3) conv_training speech rows fp16 NHWC: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/speech_fp16.err) rows"
grep -hE "wrong|fault" $OUT/speech_fp16.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
python3 -c "
import csv, math
rows = list(csv.DictReader(open('$OUT/speech_fp16.csv')))
print('  geomean paired %.3f over %d rows, %d verified, %d won by KIND 4' % (math.exp(sum(math.log(float(r['paired_speedup'])) for r in rows) / len(rows)), len(rows), sum(r['verified'] == '1' for r in rows), sum('KIND=4' in r['best_config'] for r in rows)))"
gzip -f $OUT/*.err
