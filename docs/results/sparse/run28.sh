#!/bin/bash
# Device call 28 (sparse, issue 29): KIND 2 with two slabs in flight (cp.async) and a register window of each row's nonzeros. gpu_spmm (every candidate verified on awkward
# problems), then DeepBench's sparse inference suite with the default search.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|ok, " $OUT/gspmm.log | cut -c1-160 | tail -14
s=$(date +%s)
timeout -k 5 330 ./dlbtune --op spmm -v --csv --db $OUT/db >$OUT/suite.csv 2>$OUT/suite.err
echo "== suite: exit $? in $(( $(date +%s) - s )) s"
tail -5 $OUT/suite.err
timeout 60 ./dlbtune --op spmm --db $OUT/db 2>&1 | tail -30
for k in 1 2; do
	echo "== 7680x1500x2560 at 0.9: best KIND=$k trials"
	./dlbtune db show --db $OUT/db --op spmm --m 7680 --n 1500 --k 2560 --sparsity 0.9 -v 2>&1 | grep "KIND=$k" | grep " ok " |
		sort -k9 -n | head -4 | cut -c1-110
done
