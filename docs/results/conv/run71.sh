#!/bin/bash
# Device call 71 (issue 28): run66 again, the filters' copy in KIND 3 now with up to 4 passes (32 taps each)
# in flight at once (at most 32 registers of them; run66: one pass, then a memory latency a pass). (a) KIND 3
# alone on the awkward rows it applies to, every candidate verified; (c) KIND 3 alone on smallc.csv, fp16 NHWC,
# default search, per row against run66's (c).
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
s=$(date +%s)
timeout -s INT -k 10 200 ./dlbtune --op conv --prec fp16 --layout NHWC --suite docs/results/conv/smallc.csv --only 'KIND=3' --db /tmp/dbS3 -v --csv >$OUT/smallc_k3.csv 2>$OUT/smallc_k3.err
echo "== (c) smallc fp16 NHWC, KIND 3 alone: exit $? in $(( $(date +%s) - s )) s"
python3 - $OUT/smallc_k3.csv docs/results/conv/logs/run66/smallc_k3.csv <<'PY'
import csv, sys
old = {tuple(r[k] for k in ('w', 'h', 'c', 'n', 'k', 's', 'r')): r for r in csv.DictReader(open(sys.argv[2]))}
for r in csv.DictReader(open(sys.argv[1])):
    o = old.get(tuple(r[k] for k in ('w', 'h', 'c', 'n', 'k', 's', 'r')))
    print(r['w'], r['h'], 'c' + r['c'], 'n' + r['n'], 'k' + r['k'], r['s'] + 'x' + r['r'], r['best_config'][:44], r['tuned_us'],
          'run66', o['tuned_us'] if o else '-', 'vendor', r['paired_vendor_us'] or r['cudnn_find_us'], r['paired_speedup'] or r['speedup'])
PY
gzip -f $OUT/smallc_k3.err $OUT/direct.err
