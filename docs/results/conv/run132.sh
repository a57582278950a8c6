#!/bin/bash
# Device call 132 for convolution (issue 28), 2026-12-01 (a ninth session): the 36 distinct conv_inference_server
# rows that batch1_speech_inference.csv does not hold (inference_rest132.csv: every one batch 2, none a speech
# layer), fp16 NHWC, default search, fresh database, on d60247e's conv code (the build run130 PART=2 and run131
# ran). Joined with run130 PART=2's 67 rows, the whole suite on today's kernels (run84 + run84b, 2026-11-29:
# 1.152x paired over 106 rows); table by whole_suite.py inference.
# Prediction: the 36 rows about 1.1x (run84 had them at 1.12x; the kernels' changes since were aimed at batch 1
# and speech); the whole suite about 1.3x.
# mkdir -p $OUT && OUT=$OUT bash docs/results/conv/run132.sh. Build here: make; bundle; carry dlbtune and .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
t0=$(date +%s)
timeout 500 ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/inference_rest132.csv -v --db /tmp/db132 --csv \
	>$OUT/inference_rest_fp16.csv 2>$OUT/inference_rest_fp16.err
echo "== conv_inference_server rest, fp16 NHWC, default search: exit $? at $(( $(date +%s) - t0 )) s"
python3 - $OUT/inference_rest_fp16.csv <<'PY'
import csv, math, sys
r = list(csv.DictReader(open(sys.argv[1])))
p = [float(x['paired_speedup']) for x in r if x.get('paired_speedup')]
print(f"  {len(r)} rows, {sum(x['verified'] == '1' for x in r)} verified, paired geomean {math.exp(sum(map(math.log, p)) / len(p)):.3f}")
PY
gzip -f $OUT/*.err
