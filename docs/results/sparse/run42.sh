#!/bin/bash
# Device call 42 (sparse, issue 29): KIND 3 with WARPS = 16 (128 rows a block at RPW 8: half the slab copies a
# row): gpu_spmm; then KIND 3 alone on the four N = 1500 rows of the suite, this build (slices of 32 columns)
# against ./dlbtune_x, the same with slices of 64 (segs.h's DLB_SEG_K and the template's SEG_K at 64, BK >= 64):
# fewer, longer runs of a row's nonzeros a segment.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 240 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|ok, " $OUT/gspmm.log | tail -14
printf 'm,n,k,sparsity,matrix_seed,pattern\n7680,1500,2560,0.9,1,uniform\n7680,1500,2560,0.95,1,uniform\n10752,1500,3584,0.9,1,uniform\n10752,1500,3584,0.95,1,uniform\n' >$OUT/n1500.csv
for b in dlbtune dlbtune_x; do
	s=$(date +%s)
	timeout -k 5 200 ./$b --op spmm --suite $OUT/n1500.csv --only KIND=3 -v --csv --db $OUT/$b.db >$OUT/$b.csv 2>$OUT/$b.err
	echo "== $b, KIND 3 alone: exit $? in $(( $(date +%s) - s )) s"
	grep -E "^\[" $OUT/$b.err | cut -c1-200
done
rm -rf $OUT/*.db
