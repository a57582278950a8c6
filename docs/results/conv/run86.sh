#!/bin/bash
# Device call 86 for convolution (issue 28), prepared 2026-11-29 (the third session that day; not run: the
# session's device time was spent). conv_training fp32 NCHW, the whole suite, default search, fresh database, on
# a build with the cluster split-K (659de03) and conv_cluster_finish's NCHW stores along pixels (bd74a59): the
# suite has not run since the cluster variants came. Comparison: gemm_fp32's run20 (the latest fp32 NCHW suite,
# another H200: 1.202x paired over 94 rows, speech 1.401x). Carry dlbtune, .gpu/env.sh, .gpu/lib; then
# python3 docs/results/conv/latency_bound.py with this CSV added to its list.
# Prediction: run85 found cluster splits winning 5 of 10 split rows of this suite, 10-20% under run20's times,
# so the suite's paired geomean rises 1-3% over run20's; the speech rows (no split winners in run20) unchanged;
# every row 0 wrong, 0 faults.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
timeout -s INT -k 10 ${SUITE_S:-540} ./dlbtune --op conv --prec fp32 --layout NCHW --suite training --db /tmp/dbT -v \
	--csv >$OUT/training_fp32.csv 2>$OUT/training_fp32.err
echo "== conv_training fp32 NCHW: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/training_fp32.err) rows"
grep -E "wrong|fault" $OUT/training_fp32.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
echo "rows won by a cluster split: $(grep -c 'SPLITK=-' $OUT/training_fp32.csv)"
gzip -f $OUT/training_fp32.err
