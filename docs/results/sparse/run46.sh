#!/bin/bash
# Device call 46 (sparse, issue 29): A/B of KIND 3 with one barrier a slab (wait for slab s, barrier, then issue
# slab s + 1's copies into the buffers slab s - 1 left; run39/40's ncu showed barrier stalls), built as
# ./dlbtune_x, against this build: gpu_spmm with dlbtune_x, then KIND 3 alone on the suite's four N = 1500 rows
# and two N = 3000 rows with each, twice.
. .gpu/env.sh
export top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
mkdir -p x && cp dlbtune_x x/dlbtune
s=$(date +%s)
DLB_REQUIRE_GPU=1 top_builddir=x timeout -k 5 240 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm (dlbtune_x): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|ok, " $OUT/gspmm.log | tail -14
printf 'm,n,k,sparsity\n7680,1500,2560,0.9\n7680,1500,2560,0.95\n10752,1500,3584,0.9\n10752,1500,3584,0.95\n7860,3000,2560,0.9\n7860,3000,2560,0.95\n' >$OUT/rows.csv
for b in dlbtune dlbtune_x dlbtune dlbtune_x; do
	s=$(date +%s)
	timeout -k 5 150 ./$b --op spmm --suite $OUT/rows.csv --only KIND=3 -v --csv --db $OUT/$b.db >$OUT/$b.csv 2>$OUT/$b.err
	echo "== $b, KIND 3 alone: exit $? in $(( $(date +%s) - s )) s"
	grep -E "^\[" $OUT/$b.err | sed -E 's/, vendor best.*//' | cut -c1-160
	rm -rf $OUT/$b.db
done
