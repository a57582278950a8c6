#!/bin/bash
# Device call 34 (sparse, issue 29): the GPU tests the session's generic changes (the worker's reply to a
# problem, family options, sweeps) could touch and that no earlier call ran on this build: gpu_gemm_verify,
# gpu_faults, gpu_sass; and the toy op (an op from outside src/ops: the seam).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for t in gpu_gemm_verify:150 gpu_faults:200 gpu_sass.sh:150; do
	s=$(date +%s)
	DLB_REQUIRE_GPU=1 timeout -k 5 ${t#*:} ./tests/${t%%:*} >$OUT/${t%%:*}.log 2>&1
	echo "== ${t%%:*}: exit $? in $(( $(date +%s) - s )) s"
	tail -3 $OUT/${t%%:*}.log | cut -c1-200
done
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 60 ./tests/dlbtune_toy --op rowsum --rows 1000 --cols 300 -v --db /tmp/toydb >$OUT/toy.log 2>&1
echo "== toy rowsum: exit $? in $(( $(date +%s) - s )) s"
tail -4 $OUT/toy.log | cut -c1-200
