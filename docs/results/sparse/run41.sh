#!/bin/bash
# Device call 41 (sparse, issue 29): + KIND 4 (KIND 0 reading 16-bit column indices, a copy made on the host
# where K <= 65536): gpu_spmm (every candidate on the awkward problems, now with N = 4 at K = 65536);
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
