#!/bin/bash
# Device call 43 (sparse, issue 29): KIND 3 with WARPS = 16 and one segment a slab (slices of BK columns: run42
# measured slices of 64 faster than 32), its nine copies (RPW 4, 8, 16 x BK 32, 64, 128): gpu_spmm;
# DeepBench's suite with the default search; the sweep of sparsity 70-99% on 7680x1500x2560.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 240 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|ok, " $OUT/gspmm.log | tail -14
s=$(date +%s)
timeout -k 5 240 ./dlbtune --op spmm -v --csv --db $OUT/db >$OUT/suite.csv 2>$OUT/suite.err
echo "== suite: exit $? in $(( $(date +%s) - s )) s"
timeout 60 ./dlbtune --op spmm --db $OUT/db 2>&1 | tail -1; grep -E "^\[" $OUT/suite.err | cut -c1-200
s=$(date +%s)
timeout -k 5 280 ./dlbtune --op spmm --m 7680 --n 1500 --k 2560 --sparsity 0.7:0.99:0.01 -v --csv --db $OUT/db \
	>$OUT/sweep.csv 2>$OUT/sweep.err
echo "== sweep: exit $? in $(( $(date +%s) - s )) s"
grep -E "^\[" $OUT/sweep.err | cut -c1-200
rm -rf $OUT/db
