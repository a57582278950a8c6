#!/bin/bash
# Issue 33, device call 5 (one GPU): the final build. gpu_tune_cache (its rerun answered from the database must
# say "kernel launches: 0": run04 found the line missing), gpu_faults, and gpu_conv in fp16 and fp32 (the conv
# split-K step fix of d3229c3 had not been through it on a GPU).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for t in gpu_tune_cache.sh gpu_faults; do
	s=$(date +%s)
	DLB_REQUIRE_GPU=1 timeout -k 5 120 ./tests/$t >$OUT/$t.log 2>&1
	echo "== $t: exit $? in $(( $(date +%s) - s )) s"
	tail -1 $OUT/$t.log | cut -c1-200
done
for p in fp16 fp32; do
	s=$(date +%s)
	GPU_CONV_PRECS=$p DLB_REQUIRE_GPU=1 timeout -k 5 330 ./tests/gpu_conv.sh >$OUT/gconv_$p.log 2>&1
	echo "== gpu_conv $p: exit $? in $(( $(date +%s) - s )) s"
	tail -2 $OUT/gconv_$p.log | cut -c1-200
done
