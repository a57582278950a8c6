#!/bin/bash
# Device calls 134 for convolution (issue 28), prepared 2026-12-01 (a ninth session; its device time spent). Not run.
# The suites whole on today's kernels, for the issue's first "Done when" line (every suite x precision >= 1.0x,
# the 5 best and worst rows, Benanza's measure), where the last whole runs are older than the kernels:
# PART=1 (about 40 s): the two conv_training rows run133's second half did not reach (training_rest134.csv: 7x7
#   c512 k2048 1x1 n16 and 7x7 c2048 k512 1x1 n16), fp16 NHWC, default search; then whole_suite.py training (it reads
#   logs/run134/training_rest134.csv when present) has all 94 rows. Prediction: both about 1.0-1.1x (the 1x1 n16 rows of
#   run133 are 0.98-1.07x), the suite 1.28x.
# PART=2 (about 350 s): conv_inference_server int8 NHWC whole (run72, 2026-11-27: 7.36x). conv_int8.cu has not
#   changed since 2026-11-28's cluster split-K build. Prediction: 7.2-7.6x (cuDNN's int8 moves more than ours).
# PART=3 (about 400 s): conv_training fp32 NCHW whole (run93, 2026-11-29: 1.505x). Since then the 3xTF32 wgmma
#   kernels (conv_fp16.cu built with TF32 1) got the lean consumer loop and uniform descriptors (run115, run120).
#   Prediction: 1.52-1.58x.
# One call each: mkdir -p $OUT && OUT=$OUT PART=N bash docs/results/conv/run134.sh. Build here: make on HEAD,
# bundle (../shared/gpu/bundle .gpu ./dlbtune), carry dlbtune and .gpu.
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
PY
}
case "${PART:-1}" in
1)
	timeout -s INT -k 10 200 ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/training_rest134.csv -v --db /tmp/db134a \
		--csv >$OUT/training_rest134.csv 2>$OUT/training_rest134.err
	echo "== conv_training's last two rows, fp16 NHWC: exit $? at $(( $(date +%s) - t0 )) s"; summary $OUT/training_rest134.csv ;;
2)
	timeout -s INT -k 10 540 ./dlbtune --op conv --prec int8 --layout NHWC --suite inference_server -v --db /tmp/db134b \
		--csv >$OUT/inference_int8.csv 2>$OUT/inference_int8.err
	echo "== conv_inference_server int8 NHWC: exit $? at $(( $(date +%s) - t0 )) s"; summary $OUT/inference_int8.csv ;;
3)
	timeout -s INT -k 10 ${T3:-540} ./dlbtune --op conv --prec fp32 --layout NCHW --suite training -v --db /tmp/db134c \
		--csv >$OUT/training_fp32.csv 2>$OUT/training_fp32.err
	echo "== conv_training fp32 NCHW: exit $? at $(( $(date +%s) - t0 )) s"; summary $OUT/training_fp32.csv ;;
esac
gzip -f $OUT/*.err
