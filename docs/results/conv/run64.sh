#!/bin/bash
# Device call 64 (issue 28): run63 again after rewriting the direct kernel (fp16 KIND 3): w's own order of the
# taps, 16-bit fragment reads, every copy with 8 loads in flight a thread (run63's waited for each load). (a) KIND 3 alone on the
# awkward rows it applies to, every candidate verified (tests/gpu_conv.sh's last check, by hand); (b) the 25
# DeepBench rows with few taps and a filter larger than 1x1 (docs/results/conv/smallc.csv: the speech front
# ends and the C = 1, 3, 16, 32 first layers of both suites), fp16 NHWC, default search, fresh database.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
awk -F, 'NR == 1 || $3 * $7 * $6 <= 512' tests/conv_awkward.csv >/tmp/direct.csv
timeout -k 5 150 ./dlbtune --op conv --suite /tmp/direct.csv --prec fp16 --only 'KIND=3' --strategy exhaustive --fixed-samples 1 \
	--db /tmp/db3 --csv -v >$OUT/direct.csv 2>$OUT/direct.err
echo "== (a) KIND 3 alone: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c ' ok, 0 wrong, 0 faults)' $OUT/direct.err) of $(($(wc -l </tmp/direct.csv) - 1)) rows clean"
grep " ok, .* wrong, .* faults)" $OUT/direct.err | grep -v " 0 wrong, 0 faults" | cut -c1-200 | head -5
grep -iE "error|fail" $OUT/direct.err | head -5
left=$(( 440 - ($(date +%s) - t0) ))
s=$(date +%s)
timeout -s INT -k 10 $left ./dlbtune --op conv --prec fp16 --layout NHWC --suite docs/results/conv/smallc.csv --db /tmp/dbS -v --csv >$OUT/smallc.csv 2>$OUT/smallc.err
echo "== (b) smallc fp16 NHWC ($left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "^\[" $OUT/smallc.err) rows"
grep -E "wrong|fault" $OUT/smallc.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
python3 - $OUT/smallc.csv <<'PY'
import csv, sys, math
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['paired_speedup'] not in ('', 'n/a')]
for r in rows:
    print(r['w'], r['h'], 'c' + r['c'], 'n' + r['n'], 'k' + r['k'], r['s'] + 'x' + r['r'], r['kernel_family'], r['tuned_us'], r['vendor_best'][:34], r['paired_vendor_us'], r['paired_speedup'])
g = math.exp(sum(math.log(float(r['paired_speedup'])) for r in rows) / max(1, len(rows)))
print('rows', len(rows), 'paired geomean %.3f' % g, 'KIND 3 won', sum('direct' in r['kernel_family'] for r in rows))
PY
gzip -f $OUT/smallc.err $OUT/direct.err
s=$(date +%s)
timeout -s INT -k 10 100 ./dlbtune --op conv --prec fp16 --layout NHWC --suite docs/results/conv/smallc.csv --only 'KIND=3' --db /tmp/dbS3 -v --csv >$OUT/smallc_k3.csv 2>$OUT/smallc_k3.err
echo "== (c) smallc fp16 NHWC, KIND 3 alone: exit $? in $(( $(date +%s) - s )) s"
python3 - $OUT/smallc_k3.csv <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r['w'], r['h'], 'c' + r['c'], 'n' + r['n'], 'k' + r['k'], r['s'] + 'x' + r['r'], r['best_config'], r['tuned_us'], r['vendor_best'][:34], r['speedup'])
PY
gzip -f $OUT/smallc_k3.err
