#!/bin/bash
# Device call 33 (sparse, issue 29): A from a Matrix Market file (--matrix FILE). gpu_spmm (a file's matrix
# verified with every candidate); then a user's run on a file twice: the second answers from the database.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|ok, |data:|^\[" $OUT/gspmm.log | cut -c1-170 | tail -8
awk 'BEGIN { print "%%MatrixMarket matrix coordinate real general"; print "4096 4096 409600";
	for (i = 1; i <= 4096; i++) for (j = 0; j < 100; j++) printf "%d %d %.3f\n", i, (i * 37 + j * 41) % 4096 + 1, ((i * 7 + j * 13) % 2000 - 999.5) / 1000 }' \
	>$OUT/w.mtx
for run in 1 2; do
	timeout 120 ./dlbtune --op spmm --matrix $OUT/w.mtx --n 1:16:15 -v --db $OUT/db 2>&1 | grep -vE "^ +kernels|^kernels" | tail -9
done
rm -f $OUT/w.mtx
