#!/bin/bash
# Device call 87 for convolution (issue 28), 2026-11-29 (the fourth session that day). The FFMA kernel's X2D
# loads (KIND 0 on 1x1 stride-1 unpadded layers, the "NCHW-1x1"/"NHWC-1x1" cubins, docs/NOTES.md item 138).
# Carry dlbtune, .gpu (env.sh, lib, old: 5dd2f02's dlbtune, whose KIND 0 is HEAD~'s: the only conv kernels changed
# since are the wgmma cluster finish's).
# 1. Verification: every KIND 0 candidate and split on x2d_awkward.csv (odd pixel counts, C = 1 and 13, K = 5,
#    37 and 100, dilation 2, which a 1x1 filter ignores; both layouts), exhaustive: 0 wrong.
# 2. A/B of the FFMA family alone (--only 'family:FFMA') on conv_training's 27 1x1 stride-1 rows (x2d_training.csv),
#    fp32 NCHW, default search, before (.gpu/old) and after, fresh databases.
# 3. The same rows with the whole space (default search), after: against run86's paired speedups there.
# Prediction: the loop body of BM 64 BN 64 BK 16 TM 2 TN 8 falls from 789 to 462 instructions (SASS, 256 FFMA),
# so the FFMA family 1.4-1.7x faster on these rows; the 27 rows' paired geomean from run86's 0.993x to 1.15-1.3x,
# the four worst (0.51-0.58x, FFMA winners) to 0.8-1.0x.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
t0=$(date +%s)
./dlbtune --op conv --prec fp32 --suite $d/x2d_awkward.csv --only 'KIND=0' --strategy exhaustive --fixed-samples 1 \
	--db /tmp/dbV -v --csv >$OUT/verify.csv 2>$OUT/verify.err
echo "== verify: exit $? in $(( $(date +%s) - t0 )) s"
grep " ok, .* wrong, .* faults)" $OUT/verify.err | sed 's/^ *//' | cut -c1-160
for b in old new; do
	bin=./dlbtune; [ $b = old ] && bin=.gpu/old/dlbtune
	t0=$(date +%s)
	$bin --op conv --prec fp32 --suite $d/x2d_training.csv --only 'family:FFMA' --db /tmp/dbF$b -v --csv \
		>$OUT/ffma_$b.csv 2>$OUT/ffma_$b.err
	echo "== FFMA only, $b: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/ffma_$b.err) rows"
done
t0=$(date +%s)
./dlbtune --op conv --prec fp32 --suite $d/x2d_training.csv --db /tmp/dbA -v --csv >$OUT/x2d_training.csv 2>$OUT/x2d_training.err
echo "== whole space, new: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/x2d_training.err) rows"
grep -E "wrong|fault" $OUT/*.err | grep -v " 0 wrong, 0 faults" | cut -c1-200 | tail -4
gzip -f $OUT/*.err
