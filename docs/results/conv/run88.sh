#!/bin/bash
# Device call 88 for convolution (issue 28), 2026-11-29 (the fourth session that day). run87's X2D loads, now
# with each element's address advanced a stage at a time and, where whole groups of four fall to each thread,
# four pixels of x (NCHW, H·W a multiple of 4) and four channels of w (C and the split's chunk multiples of 4)
# read as one float4 (docs/NOTES.md item 138). Carry dlbtune, .gpu.
# 1. Verification: every KIND 0 candidate and split on x2d_awkward.csv (run87's ten rows, and eight where the
#    float4 paths run: H·W = 48, 108, 4 and 784, C = 16, 20, 64 and 36), exhaustive: 0 wrong.
# 2. The FFMA family alone on conv_training's 27 1x1 stride-1 rows (x2d_training.csv), as run87's: against its
#    ffma_old (5dd2f02) and ffma_new (run87's build) by paired speedup.
# 3. The same rows with the whole space (default search).
# Prediction: the SASS path a float4 stage takes is about 365 instructions a k-tile for BM 64 BN 64 BK 16 TM 2
# TN 8 (run87's build 462), so the FFMA family 1.1-1.25x faster than run87's on rows with H·W % 4 == 0 (not the
# 7x7 ones); the 27 rows' paired geomean from 1.070x to 1.08-1.12x.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
t0=$(date +%s)
timeout -s INT -k 10 120 ./dlbtune --op conv --prec fp32 --suite $d/x2d_awkward.csv --only 'KIND=0' --strategy exhaustive \
	--fixed-samples 1 --db /tmp/dbV -v --csv >$OUT/verify.csv 2>$OUT/verify.err
echo "== verify: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c ' ok, 0 wrong, 0 faults)' $OUT/verify.err) of 18 rows 0 wrong, 0 faults"
grep " ok, .* wrong, .* faults)" $OUT/verify.err | grep -v " ok, 0 wrong, 0 faults)" | cut -c1-200
t0=$(date +%s)
timeout -s INT -k 10 110 ./dlbtune --op conv --prec fp32 --suite $d/x2d_training.csv --only 'family:FFMA' --db /tmp/dbF -v --csv \
	>$OUT/ffma_new.csv 2>$OUT/ffma_new.err
echo "== FFMA only: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/ffma_new.err) rows"
t0=$(date +%s)
timeout -s INT -k 10 150 ./dlbtune --op conv --prec fp32 --suite $d/x2d_training.csv --db /tmp/dbA -v --csv \
	>$OUT/x2d_training.csv 2>$OUT/x2d_training.err
echo "== whole space: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/x2d_training.err) rows"
grep -E "wrong|fault" $OUT/*.err | grep -v " 0 wrong, 0 faults" | cut -c1-200 | tail -4
gzip -f $OUT/*.err
