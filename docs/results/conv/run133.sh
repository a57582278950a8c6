#!/bin/bash
# Device call 133 for convolution (issue 28), 2026-12-01 (a ninth session): conv_training fp16 NHWC on today's
# kernels, the 74 distinct rows that speech_training.csv does not hold, in two interleaved halves
# (training_rest133a.csv, training_rest133b.csv; PART=a or b), default search, fresh database, cut at LIMIT s
# (SIGINT: the rows done are kept). With run131's 16 speech rows, the suite whole (whole_suite.py training). The
# last whole run: run67 + run70 (2026-11-27): 1.082x over 92 rows.
# Prediction: about 1.15x on the non-speech rows (KIND 2 wins 76 of 92 rows there, and it got 5-20% faster since
# run67 on the batch-1 rows; these are batch 8-32, more throughput-bound, so less).
# mkdir -p $OUT && OUT=$OUT PART=a bash docs/results/conv/run133.sh. Build: make; bundle; carry dlbtune and .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
p=${PART:-a}
t0=$(date +%s)
timeout -s INT -k 10 ${LIMIT:-340} ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/training_rest133$p.csv -v \
	--db /tmp/db133$p --csv >$OUT/training_rest133$p.csv 2>$OUT/training_rest133$p.err
echo "== conv_training rest ($p), fp16 NHWC, default search: exit $? at $(( $(date +%s) - t0 )) s"
python3 - $OUT/training_rest133$p.csv <<'PY'
import csv, math, sys
r = list(csv.DictReader(open(sys.argv[1])))
p = [float(x['paired_speedup']) for x in r if x.get('paired_speedup')]
print(f"  {len(r)} rows, {sum(x['verified'] == '1' for x in r)} verified, paired geomean {math.exp(sum(map(math.log, p)) / len(p)):.3f}")
PY
gzip -f $OUT/*.err
