#!/bin/bash
# Device calls 108 for convolution (issue 28), prepared 2026-11-29 (the tenth session). Not run.
# The fp16 NHWC suites whole on the landed build (KIND 4 with wgmma and 128-k passes, every convolution a
# programmatic dependent launch): the closing table's numbers. The last whole runs are older: conv_training fp16
# NHWC 1.082x (run67 + run70, before KIND 4, the clusters and PDL), conv_inference_server fp16 NHWC 1.152x (run84,
# before KIND 4 and PDL).
# SUITE=training|inference_server, PART=1|2: the suite's first or second half of rows (so each fits one call;
# run67 did 66 training rows in 186 s with a warm kernel cache, run84 91 inference rows in 540 s cold), default
# search, a fresh database. Build here (./bootstrap && ./configure && make), carry dlbtune and .gpu.
# Prediction: training 1.082x -> 1.12-1.18x (the speech rows 1.126x -> 1.28x, PDL on the small rows);
#   inference_server 1.152x -> 1.19-1.24x (batch 1 and speech, run102 and run106).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
PART=${PART:-1}; s=${SUITE:-training}; f=src/ops/conv/suites/conv_$s.csv
n=$(($(wc -l <$f) - 1)); h=$(( (n + 1) / 2 ))
if [ "${PART:-1}" = 1 ]; then head -n $((h + 1)) $f >/tmp/half.csv; else { head -n 1 $f; tail -n +$((h + 2)) $f; } >/tmp/half.csv; fi
t0=$(date +%s)
timeout -s INT -k 10 560 ./dlbtune --op conv --prec fp16 --layout NHWC --suite /tmp/half.csv --db /tmp/db$s -v --csv \
	>$OUT/${s}_$PART.csv 2>$OUT/${s}_$PART.err
echo "== conv_$s fp16 NHWC, half ${PART:-1} ($(($(wc -l </tmp/half.csv) - 1)) rows): exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/${s}_$PART.err) rows done"
grep -hE "wrong|fault" $OUT/*.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
python3 -c "
import csv, math
rows = list(csv.DictReader(open('$OUT/${s}_$PART.csv')))
print('  geomean paired %.3f over %d rows, %d verified, %d won by KIND 4' % (math.exp(sum(math.log(float(r['paired_speedup'])) for r in rows) / len(rows)), len(rows), sum(r['verified'] == '1' for r in rows), sum('KIND=4' in r['best_config'] for r in rows)))"
gzip -f $OUT/*.err
