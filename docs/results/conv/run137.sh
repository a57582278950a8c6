#!/bin/bash
# Device call 137 for convolution (issue 28), 2026-12-01 (a twelfth session). The rows the whole-suite runs of
# run134 did not reach before their limits, so that every suite x precision of the issue's first "Done when" line
# has all its rows: conv_inference_server int8 NHWC's 7x7 c2048 n2 k512 1x1 (int8_rest137.csv; run134 PART=2 had
# 106 of 107) and conv_training fp32 NCHW's three 1x1 n16 rows (fp32_rest137.csv; run134 PART=3 had 91 of 94),
# default search, on HEAD's kernels (the same conv code as run134's for int8 and fp32's FFMA kernels; 3xTF32's
# wgmma kernels gained item 231's set-up before the wait).
# Prediction: the int8 row 6-9x (its n1 twin is 7.4x in run134), the fp32 rows 1.0-1.3x (run93's n8 twins).
# One call: mkdir -p $OUT && OUT=$OUT bash docs/results/conv/run137.sh. Carry dlbtune and .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
t0=$(date +%s)
summary() {
	python3 - "$1" <<'PY'
import csv, math, sys
r = list(csv.DictReader(open(sys.argv[1])))
p = [float(x['paired_speedup']) for x in r if x.get('paired_speedup')]
print(f"  {len(r)} rows, {sum(x['verified'] == '1' for x in r)} verified, paired geomean {math.exp(sum(map(math.log, p)) / len(p)):.3f}")
for x in r:
	print(f"  {x['w']}x{x['h']} c{x['c']} n{x['n']} k{x['k']} {x['s']}x{x['r']}: ours {x['paired_tuned_us']} us, cuDNN {x['paired_vendor_us']} us, paired {x['paired_speedup']}x, {x['best_config']}")
PY
}
timeout -s INT -k 10 200 ./dlbtune --op conv --prec int8 --layout NHWC --suite $d/int8_rest137.csv -v --db /tmp/db137a \
	--csv >$OUT/int8_rest137.csv 2>$OUT/int8_rest137.err
echo "== conv_inference_server's last int8 row: exit $? at $(( $(date +%s) - t0 )) s"; summary $OUT/int8_rest137.csv
timeout -s INT -k 10 360 ./dlbtune --op conv --prec fp32 --layout NCHW --suite $d/fp32_rest137.csv -v --db /tmp/db137b \
	--csv >$OUT/fp32_rest137.csv 2>$OUT/fp32_rest137.err
echo "== conv_training's last three fp32 rows: exit $? at $(( $(date +%s) - t0 )) s"; summary $OUT/fp32_rest137.csv
gzip -f $OUT/*.err
