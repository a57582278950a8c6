#!/bin/bash
# Device call 44 (sparse, issue 29): A/B of KIND 0 and 4 reading four nonzeros a lane at a time (a 16-byte load
# of values, one of columns; the row's unaligned head and tail one at a time), built as ./dlbtune_x, against this
# build: gpu_spmm with dlbtune_x, then the suite's 12 rows with N <= 4 (the default search) with each.
. .gpu/env.sh
export top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
mkdir -p x && cp dlbtune_x x/dlbtune
s=$(date +%s)
DLB_REQUIRE_GPU=1 top_builddir=x timeout -k 5 240 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm (dlbtune_x): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|ok, " $OUT/gspmm.log | tail -14
awk -F, 'NR == 1 || $2 <= 4' src/ops/sparse/suites/spmm_inference_server.csv >$OUT/small.csv
for b in dlbtune dlbtune_x dlbtune dlbtune_x; do
	s=$(date +%s)
	timeout -k 5 200 ./$b --op spmm --suite $OUT/small.csv -v --csv --db $OUT/$b.db >$OUT/$b.csv 2>$OUT/$b.err
	echo "== $b: exit $? in $(( $(date +%s) - s )) s"
	grep -E "^\[|paired speedup" $OUT/$b.err | sed -E 's/, vendor best.*//; s/.*paired speedup/  paired/' | cut -c1-160
	rm -rf $OUT/$b.db
done
