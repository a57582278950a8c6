#!/bin/bash
# Device call 89 for convolution (issue 28), 2026-11-29 (the fourth session that day). The X2D loads of the FFMA
# kernel on every 1x1 layer (any stride, padding, dilation: the input pixel of a tap decoded once, a padded one
# reading 0), not only stride-1 unpadded ones; the float4 path only where stride 1, no padding and H·W % 4 == 0
# (docs/NOTES.md item 138). Carry dlbtune, .gpu.
# 1. Verification: every KIND 0 candidate and split on x2d_awkward.csv (run88's 18 rows and six 1x1 rows with
#    stride 2 and 3, padding 1 and 2, dilation 2, H·W = 72 and 196 with the float4 path off), exhaustive: 0 wrong.
# 2. conv_training's 18 other 1x1 rows (stride 2; r1s1_stride_training.csv), fp32 NCHW, default search, fresh
#    database, against run86's paired speedups there; then the FFMA family alone on them.
# Prediction: on those rows the FFMA family 1.2-1.35x faster than run86's (no float4 for x at stride 2, w's
#    float4 kept), so the rows FFMA won in run86 (7, at 0.68-0.90x) at 0.85-1.1x; the 18 rows' paired geomean
#    from run86's 0.96x to 1.02-1.08x.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
t0=$(date +%s)
timeout -s INT -k 10 140 ./dlbtune --op conv --prec fp32 --suite $d/x2d_awkward.csv --only 'KIND=0' --strategy exhaustive \
	--fixed-samples 1 --db /tmp/dbV -v --csv >$OUT/verify.csv 2>$OUT/verify.err
echo "== verify: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c ' ok, 0 wrong, 0 faults)' $OUT/verify.err) of 24 rows 0 wrong, 0 faults"
grep " ok, .* wrong, .* faults)" $OUT/verify.err | grep -v " ok, 0 wrong, 0 faults)" | cut -c1-200
t0=$(date +%s)
timeout -s INT -k 10 130 ./dlbtune --op conv --prec fp32 --suite $d/r1s1_stride_training.csv --db /tmp/dbA -v --csv \
	>$OUT/stride_training.csv 2>$OUT/stride_training.err
echo "== whole space: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/stride_training.err) rows"
t0=$(date +%s)
timeout -s INT -k 10 80 ./dlbtune --op conv --prec fp32 --suite $d/r1s1_stride_training.csv --only 'family:FFMA' --db /tmp/dbF -v \
	--csv >$OUT/stride_ffma.csv 2>$OUT/stride_ffma.err
echo "== FFMA only: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/stride_ffma.err) rows"
grep -E "wrong|fault" $OUT/*.err | grep -v " 0 wrong, 0 faults" | cut -c1-200 | tail -4
gzip -f $OUT/*.err
