#!/bin/bash
# Device call 35 (sparse, issue 29): the session's final build (a failing cuSPARSE algorithm is an entry without
# a time; export's C identifiers): gpu_spmm, and the suite once more for the closing table's numbers.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed" $OUT/gspmm.log | tail -3
s=$(date +%s)
timeout -k 5 200 ./dlbtune --op spmm -v --csv --db $OUT/db >$OUT/suite.csv 2>$OUT/suite.err
echo "== suite: exit $? in $(( $(date +%s) - s )) s"
grep "^geomean" $OUT/suite.err; timeout 60 ./dlbtune --op spmm --db $OUT/db 2>&1 | tail -1
