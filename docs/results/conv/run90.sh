#!/bin/bash
# Device call 90 for convolution (issue 28), prepared 2026-11-29 (the fourth session that day; not run: the
# session had 154 s of device time, too few to start a machine). Apply next_x2d_offsets.diff first (the review of
# c64ae56: the X2D loads keep offsets, not pointers, which past the last
# channel could point past the tensor); a mechanical change, the same addresses. Verification only: every KIND 0
# candidate and split, exhaustive, on x2d_mini.csv (six of x2d_awkward's rows: both float4 paths, C = 13 with
# BK 16, padding with strides 2 and 3, both layouts). Prediction: 0 wrong. Carry dlbtune, .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
timeout -s INT -k 5 90 ./dlbtune --op conv --prec fp32 --suite docs/results/conv/x2d_mini.csv --only 'KIND=0' --strategy exhaustive \
	--fixed-samples 1 --db /tmp/dbV -v --csv >$OUT/verify.csv 2>$OUT/verify.err
echo "== verify: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c ' ok, 0 wrong, 0 faults)' $OUT/verify.err) of 6 rows 0 wrong, 0 faults"
grep " ok, .* wrong, .* faults)" $OUT/verify.err | sed 's/^ *//' | cut -c1-160
gzip -f $OUT/verify.err
