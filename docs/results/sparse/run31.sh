#!/bin/bash
# Device call 31 (sparse, issue 29): KIND 2 with each thread's slab copies addressed once a chunk (not divided
# out per copy) and each window's slab rows worked out once a slab (not per nonzero). gpu_spmm, the suite, the
# best KIND 1 and 2 trials of the two N = 1500 rows of K = 2560.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|ok, " $OUT/gspmm.log | cut -c1-160 | tail -14
s=$(date +%s)
timeout -k 5 200 ./dlbtune --op spmm -v --csv --db $OUT/db >$OUT/suite.csv 2>$OUT/suite.err
echo "== suite: exit $? in $(( $(date +%s) - s )) s"
tail -3 $OUT/suite.err
timeout 60 ./dlbtune --op spmm --db $OUT/db 2>&1 | tail -28
for sp in 0.9 0.95; do
	for k in 1 2; do
		echo "== 7680x1500x2560 at $sp: best KIND=$k trials"
		./dlbtune db show --db $OUT/db --op spmm --m 7680 --n 1500 --k 2560 --sparsity $sp -v 2>&1 | grep "KIND=$k" |
			grep " ok " | sort -k9 -n | head -3 | cut -c1-110
	done
done
