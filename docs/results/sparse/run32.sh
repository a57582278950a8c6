#!/bin/bash
# Device call 32 (sparse, issue 29): the matrix statistics under each progress line (op.h's data_note, the
# worker's reply to its problem): gpu_spmm checks them; gpu_tune_cache and gpu_conv fp32 for the changed worker
# reply on the other ops.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for t in gpu_spmm:200 gpu_tune_cache:120; do
	s=$(date +%s)
	DLB_REQUIRE_GPU=1 timeout -k 5 ${t#*:} ./tests/${t%%:*}.sh >$OUT/${t%%:*}.log 2>&1
	echo "== ${t%%:*}: exit $? in $(( $(date +%s) - s )) s"
	grep -E "FAIL|passed|failed" $OUT/${t%%:*}.log | cut -c1-160 | tail -5
done
s=$(date +%s)
GPU_CONV_PRECS=fp32 DLB_REQUIRE_GPU=1 timeout -k 5 100 ./tests/gpu_conv.sh >$OUT/gconv_fp32.log 2>&1
echo "== gpu_conv fp32: exit $? in $(( $(date +%s) - s )) s"
tail -2 $OUT/gconv_fp32.log
timeout 120 ./dlbtune --op spmm --m 7680 --n 4 --k 2560 --sparsity 0.9:0.95:0.05 --pattern skewed -v --db $OUT/db 2>&1 | grep -E "^\[|data:"
