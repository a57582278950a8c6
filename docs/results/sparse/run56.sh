#!/bin/bash
# Device call 56 (sparse, issue 29), prepared 2026-11-28 without device time. First GPU run of 71e381d: cuSPARSE's
# BSR and Blocked-ELL SpMM join the baselines where a block pattern's square blocks tile M and K. (1) gpu_spmm
# (both precisions; its new 1024x24x512 4x4 problem must show both entries, verified or n/a with cuSPARSE's
# reason, never wrong); (2) two DeepBench shapes in 4x4 and 16x16 blocks at 90%, fp32 and fp16, default search:
# which cuSPARSE format wins, and where ours stands against it (our kernels do not use the blocks yet).
# Prediction: Blocked-ELL fp16 (tensor cores) beats every CSR algorithm at 16x16 and N >= 1500; BSR in between.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log56.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
[ -n "$SKIP_GSPMM" ] || DLB_REQUIRE_GPU=1 timeout -k 5 220 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|cusparse:(BSR|BLOCKED)" $OUT/gspmm.log | cut -c1-200 | tail -12
for prec in fp32 fp16; do
	for b in 4 16; do
		for n in 1 1500; do
			./dlbtune --op spmm --prec $prec --m 7680 --n $n --k 2560 --sparsity 0.9 --pattern block:${b}x$b \
				--db /tmp/db_blk --csv >$OUT/b.csv 2>/dev/null
			./dlbtune db show --op spmm --prec $prec --m 7680 --n $n --k 2560 --sparsity 0.9 --pattern block:${b}x$b \
				--db /tmp/db_blk 2>&1 | grep -E "cusparse:|^best|tuned" | cut -c1-150 | sed "s/^/  $prec ${b}x$b N=$n: /"
		done
	done
done
