#!/bin/bash
# Device call 30 (sparse, issue 29): the kernels of run28 (UNR and the min-blocks launch bound of run29 taken back
# out of KIND 0 and 1), the skewed pattern in gpu_spmm, DeepBench's sparse suite, and the sweep of sparsity 70-99%
# on 7680x1500x2560 (the suite's shape where N = 1500).
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
s=$(date +%s)
timeout -k 5 280 ./dlbtune --op spmm --m 7680 --n 1500 --k 2560 --sparsity 0.7:0.99:0.01 -v --csv --db $OUT/db \
	>$OUT/sweep.csv 2>$OUT/sweep.err
echo "== sweep: exit $? in $(( $(date +%s) - s )) s"
tail -3 $OUT/sweep.err
timeout 60 ./dlbtune --op spmm --m 7680 --n 1500 --k 2560 --sparsity 0.7:0.99:0.01 --db $OUT/db 2>&1 | tail -33
