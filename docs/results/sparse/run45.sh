#!/bin/bash
# Device call 45 (sparse, issue 29): + NZV (KIND 0 and 4 read 4 nonzeros a lane at once, or 1: run44 measured
# each ahead on some of the N <= 4 rows), the 32-bit columns 16-byte aligned after the values: gpu_spmm (with an
# N = 2 problem of an odd count of nonzeros); DeepBench's suite with the default search.
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
timeout 60 ./dlbtune --op spmm --db $OUT/db 2>&1 | tail -1; grep -E "^\[|paired speedup" $OUT/suite.err | sed -E 's/, vendor best.*//; s/.*paired speedup/  paired/' | cut -c1-160
rm -rf $OUT/db
