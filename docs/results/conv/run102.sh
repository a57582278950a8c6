#!/bin/bash
# Device call 102 for convolution (issue 28), 2026-11-29 (the ninth session): conv_inference_server's batch-1
# and speech rows (batch1_speech_inference.csv: 55 distinct batch-1 rows and the 22 speech rows, 67 in all),
# fp16 NHWC, default search, fresh database, on 4e2025f (KIND 4 with wgmma): the rows issue 28's 1.5x target
# names, measured again with today's kernels for latency_bound.py (run84 had them at 1.165x and 1.224x, before
# KIND 4 existed).
# Build here (./bootstrap && ./configure && make), carry dlbtune and .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
timeout -s INT -k 10 540 ./dlbtune --op conv --prec fp16 --layout NHWC --suite docs/results/conv/batch1_speech_inference.csv \
	--db /tmp/dbB -v --csv >$OUT/batch1_speech.csv 2>$OUT/batch1_speech.err
echo "== batch-1 and speech inference rows fp16 NHWC: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/batch1_speech.err) rows"
grep -hE "wrong|fault" $OUT/*.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
python3 -c "
import csv, math
rows = list(csv.DictReader(open('$OUT/batch1_speech.csv')))
print('  geomean paired %.3f over %d rows, %d verified, %d won by KIND 4' % (math.exp(sum(math.log(float(r['paired_speedup'])) for r in rows) / len(rows)), len(rows), sum(r['verified'] == '1' for r in rows), sum('KIND=4' in r['best_config'] for r in rows)))"
gzip -f $OUT/*.err
