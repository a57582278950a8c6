#!/bin/bash
# Device call 100 for convolution (issue 28), 2026-11-29 (the eighth session that day). Three blocks an SM for
# fp16's KIND 4 (docs/NOTES.md item 150): run98's ncu had the 341x79 winner at 2 blocks (95 KB each), 7.7 warps
# an SM and 0.61 eligible warps a scheduler. Builds (carried in .gpu):
#   .gpu/k4copies: what landed (the cheaper copies, item 149)
#   .gpu/k4swz: + the patch's slots unpadded and XOR-swizzled where C/8 is 2, 4 or a multiple of 8 (341x79:
#               60.8 -> 48.6 KB of patch; still 2 blocks: 83 KB)
#   .gpu/k4swz128: + filter slabs of 128 k instead of 256 (DSLAB and conv.c's DIRECT_LD_SLAB): 65 KB, 3 blocks
# (1) KIND 4 alone, exhaustive, on its 9 test rows (run97 PART=1's first step), both new builds: 0 wrong?
# (2) KIND 4 alone on the six 341x79 rows, default search, fresh databases, the three builds.
# (3) conv_training's 16 speech rows, fp16 NHWC, default search, with the build (2) found fastest.
# Prediction: swizzle alone 0.95-1.02x (a few ALU operations a step, same occupancy); with 3 blocks an SM
# 1.15-1.3x on the 341x79 rows (n32 109 -> 85-95 µs); the speech rows 1.251x -> 1.30-1.35x.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv; tmp=/tmp/k4v; mkdir -p $tmp $tmp/v $tmp/ab
{ awk -F, 'NR == 1 || ($14 ~ /^NHWC/ && $3 % 8 == 0 && $6 * $7 > 1)' tests/conv_awkward.csv
  tail -n +2 tests/conv_direct_ld.csv; } >$tmp/direct4.csv
want=$(($(wc -l <$tmp/direct4.csv) - 1))
for b in swz swz128; do
	t0=$(date +%s)
	timeout -s INT -k 5 90 .gpu/k4$b/dlbtune --op conv --suite $tmp/direct4.csv --prec fp16 --only 'KIND=4' \
		--strategy exhaustive --fixed-samples 1 --db $tmp/db4$b --csv -v >$tmp/v/out4_$b.csv 2>$tmp/v/err4_$b.txt
	rc=$?
	echo "== (1) $b: KIND=4 alone: exit $rc in $(( $(date +%s) - t0 )) s: $(grep -c " ok, 0 wrong, 0 faults)" $tmp/v/err4_$b.txt) of $want rows verified without a wrong answer or fault, $(grep -c KIND=4 $tmp/v/out4_$b.csv) won by KIND 4"
	grep " ok, .* wrong, .* faults)" $tmp/v/err4_$b.txt | grep -v " 0 wrong, 0 faults" | cut -c1-200
done
tar -C $tmp/v -czf $OUT/verify.tgz .
for b in copies swz swz128; do
	t0=$(date +%s)
	timeout -s INT -k 5 45 .gpu/k4$b/dlbtune --op conv --prec fp16 --layout NHWC --suite $d/speech_341.csv --only 'KIND=4' \
		--db /tmp/db341$b --csv >$tmp/ab/k4_$b.csv 2>/dev/null
	echo "== (2) KIND 4 alone, $b: exit $? in $(( $(date +%s) - t0 )) s"
	python3 -c "
import csv
for r in csv.DictReader(open('$tmp/ab/k4_$b.csv')):
    print('  n%-3s %8s us  %s' % (r['n'], r['tuned_us'], r['best_config'].replace(' WARPS_N=1 STAGES=2 KIND=4', '')))"
done
tar -C $tmp/ab -czf $OUT/ab.tgz .
best=$(python3 -c "
import csv, math
g = {}
for b in ('copies', 'swz', 'swz128'):
    try:
        t = [float(r['tuned_us']) for r in csv.DictReader(open('$tmp/ab/k4_%s.csv' % b))]
        g[b] = math.exp(sum(map(math.log, t)) / len(t)) if len(t) == 6 else 1e30
    except Exception:
        g[b] = 1e30
print(min(g, key=g.get))")
echo "== (3) with .gpu/k4$best"
t0=$(date +%s)
timeout -s INT -k 10 170 .gpu/k4$best/dlbtune --op conv --prec fp16 --layout NHWC --suite $d/speech_training.csv --db /tmp/dbH -v \
	--csv >$OUT/speech_fp16.csv 2>$OUT/speech_fp16.err
echo "== (3) conv_training speech rows fp16 NHWC, $best: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/speech_fp16.err) rows"
grep -hE "wrong|fault" $OUT/*.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
python3 -c "
import csv, math
rows = list(csv.DictReader(open('$OUT/speech_fp16.csv')))
print('  geomean paired %.3f over %d rows, %d verified' % (math.exp(sum(math.log(float(r['paired_speedup'])) for r in rows) / len(rows)), len(rows), sum(r['verified'] == '1' for r in rows)))"
gzip -f $OUT/*.err
