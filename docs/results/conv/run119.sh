#!/bin/bash
# Device calls 119 for convolution (issue 28), prepared 2026-11-30 (a fifth session). Not run.
# next_k3_pred_store.diff (k3: fp16's KIND 3 stores NHWC pairs under one predicate a column, as run118's ps3; KIND 4
# and fp32 keep HEAD's stores) was committed as f366a01 and reverted (aee0acd) because its own build had not run on a
# device (docs/NOTES.md item 198). Its kernels' SASS is run118's ps3 (fp16 KIND 3) and HEAD's (the rest), so:
# PART=1 (about 170 s): tests/gpu_conv.sh GPU_CONV_DIRECT=1 on k3's build, fp32 then fp16 (must pass: 0 wrong), then
#   HEAD (ds) against k3 on direct_rows116.csv as run116 PART=2, each build twice. Prediction: the KIND 4 rows
#   (341x79, 240x24, 120x12) within 1% of ds, 480x48 c1 k16 about 0.89 of ds, geomean about 0.99.
# PART=2 (about 370 s): run115.sh PART=1 on k3's build (the 67 batch-1 and speech rows), against run116's 1.390x
#   (batch 1) and 1.442x (speech). Prediction: batch 1 about 1.395x, speech unchanged within cuDNN's own moves.
# If PART=1 passes, re-apply: git revert aee0acd (or git apply docs/results/conv/next_k3_pred_store.diff).
# One call each: mkdir -p $OUT && OUT=$OUT PART=N bash docs/results/conv/run119.sh.
# Build: git apply docs/results/conv/next_k3_pred_store.diff && make && mkdir -p .gpu/ck3 && cp dlbtune .gpu/ck3/
# && git checkout templates && make; keep .gpu/cds (HEAD's build: make; cp dlbtune .gpu/cds/); bundle
# (../shared/gpu/bundle .gpu ./dlbtune); carry dlbtune and .gpu.
. .gpu/env.sh
part=${PART:-1}
d=docs/results/conv
t0=$(date +%s)
if [ $part = 2 ]; then
	cp .gpu/ck3/dlbtune ./dlbtune && mkdir -p $OUT/p1 && OUT=$OUT/p1 PART=1 LIMIT=160 bash $d/run115.sh
	tar czf $OUT/p2.tgz -C $OUT p1 && rm -rf $OUT/p1
	exit 0
fi
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for p in fp32 fp16; do
	DLB_REQUIRE_GPU=1 GPU_CONV_DIRECT=1 GPU_CONV_PRECS=$p top_builddir=.gpu/ck3 timeout 250 sh tests/gpu_conv.sh >$OUT/gpu_conv_direct_$p.txt 2>&1
	echo "== gpu_conv direct $p (.gpu/ck3/dlbtune): exit $? at $(( $(date +%s) - t0 )) s"; tail -4 $OUT/gpu_conv_direct_$p.txt
done
OUT=$OUT A=ds BIN_A=.gpu/cds/dlbtune B=k3 BIN_B=.gpu/ck3/dlbtune bash $d/ab_direct.sh
