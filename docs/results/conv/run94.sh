#!/bin/bash
# Device call 94 for convolution (issue 28), 2026-11-29 (the sixth session that day), on run93's build (b1d4827):
# conv_training's 16 speech rows (DeepSpeech 700x161 and 341x79, Speaker ID 350x80 .. 42x10; speech_training.csv)
# in fp16 NHWC, default search, fresh database. The last fp16 measurement of these rows is run67 (1.126x paired,
# an early build: no cluster split-K, no X2D, no BN 32 3xTF32). The session had 279 s of device time left.
# Prediction: 1.15-1.35x; the 341x79 c32 k32 rows (run67 0.73-0.94x) still the weakest.
# Carry dlbtune, .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
t0=$(date +%s)
timeout -s INT -k 10 ${LIMIT:-230} ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/speech_training.csv --db /tmp/dbH -v \
	--csv >$OUT/speech_fp16.csv 2>$OUT/speech_fp16.err
echo "== conv_training speech rows fp16 NHWC: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/speech_fp16.err) rows"
grep -E "wrong|fault" $OUT/speech_fp16.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
gzip -f $OUT/speech_fp16.err
