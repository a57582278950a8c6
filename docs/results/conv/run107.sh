#!/bin/bash
# Device calls 107 for convolution (issue 28), prepared 2026-11-29 (the tenth session), run 2026-11-30 on an H200 (logs/run107; PART=2 with lim 225).
# PART=1: run102 again on the PDL build (every convolution a programmatic dependent launch; docs/NOTES.md item
#   156): conv_inference_server's 55 distinct batch-1 rows and 22 speech rows (batch1_speech_inference.csv),
#   fp16 NHWC, default search, fresh database (run102: 412 s, 1.178x paired; batch 1 1.163x, speech 1.266x).
#   Prediction: batch 1 1.163x -> 1.22-1.26x (run106's A/B: 1.158x -> 1.261x on 20 of its rows, the sample's first
#   launch unable to overlap), speech 1.266x -> 1.28-1.31x.
# PART=2: conv_training's 16 speech rows (speech_training.csv) on the same build (run104: 1.271x; run105's
#   PDL + 256-k passes: 1.281x).
# Build here (./bootstrap && ./configure && make), carry dlbtune and .gpu. Then:
#   python3 docs/results/conv/latency_bound.py with logs/run107's CSVs added.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
case "${PART:-1}" in
1) suite=$d/batch1_speech_inference.csv; name=batch1_speech; lim=540 ;;
2) suite=$d/speech_training.csv; name=speech_fp16; lim=225 ;;
esac
t0=$(date +%s)
timeout -s INT -k 10 $lim ./dlbtune --op conv --prec fp16 --layout NHWC --suite $suite --db /tmp/db$name -v --csv \
	>$OUT/$name.csv 2>$OUT/$name.err
echo "== $name fp16 NHWC: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/$name.err) rows"
grep -hE "wrong|fault" $OUT/*.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
python3 -c "
import csv, math
rows = list(csv.DictReader(open('$OUT/$name.csv')))
print('  geomean paired %.3f over %d rows, %d verified, %d won by KIND 4' % (math.exp(sum(math.log(float(r['paired_speedup'])) for r in rows) / len(rows)), len(rows), sum(r['verified'] == '1' for r in rows), sum('KIND=4' in r['best_config'] for r in rows)))"
gzip -f $OUT/*.err
