#!/bin/bash
# Device calls 113 for convolution (issue 28), 2026-11-30, one H200 (logs/run113). The commands as run, each a
# device call of its own (calls 5-7 of the session). After run112 (NOTES item 175) left MC and STAGES 12 out,
# first_tile went in alone (NOTES item 176): each wgmma role reads its block's first tile from %ctaid.x after its
# setmaxnreg, so ptxas keeps no tile index live across the reallocation (the 24-byte NCHW8 spill of 128x256
# WARPS_M 2 at STAGES 2-3, item 173). It changes every wgmma conv kernel's source, so all of them compiled cold.
# Build here: HEAD's dlbtune copied to .gpu/cbase before the change, then the change, make; bundle; carry
# dlbtune and .gpu (and tests/sass_ops for PART=3).
# PART=1 (logs/run113/cold): gpu_conv fp16 on a cold kernel cache (limit 500 s): cut while still in its sections.
# PART=2 (logs/run113/tests, logs/run113/ab): gpu_conv fp16 again (its kernels cached), then worst_batch1.csv
#   tuned by both builds in turn, default search, fresh databases. Prediction: 0 wrong; the times within 2%.
# PART=3 (logs/run113/tests): gpu_sass (nvdisasm against sass_ops) on the build.
. .gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
case "${PART:-1}" in
1)
	DLB_REQUIRE_GPU=1 GPU_CONV_PRECS=fp16 timeout 500 sh tests/gpu_conv.sh >$OUT/gpu_conv_fp16.txt 2>&1
	echo "== gpu_conv fp16 (first_tile): exit $? at $(( $(date +%s) - t0 )) s"
	;;
2)
	DLB_REQUIRE_GPU=1 GPU_CONV_PRECS=fp16 timeout 300 sh tests/gpu_conv.sh >$OUT/gpu_conv_fp16.txt 2>&1
	echo "== gpu_conv fp16 (first_tile, warm): exit $? at $(( $(date +%s) - t0 )) s"
	tail -2 $OUT/gpu_conv_fp16.txt
	d=docs/results/conv
	for b in base ft; do
		bin=./dlbtune; [ $b = base ] && bin=.gpu/cbase/dlbtune
		timeout -s INT -k 5 110 $bin --op conv --prec fp16 --layout NHWC --suite $d/worst_batch1.csv --db /tmp/dbw_$b \
			--csv >$OUT/ab_$b.csv 2>$OUT/ab_$b.err
		echo "== worst_batch1 $b: exit $? at $(( $(date +%s) - t0 )) s"
	done
	gzip -f $OUT/*.err
	;;
3)
	DLB_REQUIRE_GPU=1 timeout 240 sh tests/gpu_sass.sh >$OUT/gpu_sass.txt 2>&1
	echo "== gpu_sass: exit $? at $(( $(date +%s) - t0 )) s"
	tail -3 $OUT/gpu_sass.txt
	;;
esac
