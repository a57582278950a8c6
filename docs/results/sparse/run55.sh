#!/bin/bash
# Device call 55 (sparse, issue 29), 2026-11-28. run54 (ncu source page, fp32 KIND 3 on 10752x6000x3584 at 90%):
# 42% of the stall samples short scoreboard, the largest two on a chain in each two-nonzero iteration: entry j + 1
# read from shared memory, then its slab row. This build keeps entries j and j + 1 an iteration ahead, so both
# slab rows' loads issue at the top. KIND 3 alone on the six wide rows with M = 7680/7860 (wide_rows_small.csv),
# fp32, .gpu/dlbtune_old (db3fc57: the KIND 3 before) and this build, in turn; then gpu_spmm (fp32 and fp16,
# every candidate verified). Prediction: 10-15% faster.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for b in .gpu/dlbtune_old ./dlbtune; do
	s=$(date +%s)
	n=$(basename $b)
	timeout -s INT -k 5 80 $b --op spmm --prec fp32 --suite docs/results/sparse/wide_rows_small.csv --only "KIND=3 " \
		--db /tmp/db3_$n --csv >$OUT/k3_$n.csv 2>$OUT/k3_$n.err
	echo "== KIND 3 alone, $n: exit $? in $(( $(date +%s) - s )) s"
	python3 docs/results/sparse/table.py $OUT/k3_$n.csv | grep -E "^\| [0-9]|geomean" | cut -d'|' -f2-6,11
done
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 170 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed" $OUT/gspmm.log | cut -c1-200 | tail -6
