#!/bin/bash
# Device call 52 (sparse, issue 29), prepared 2026-11-28 without device time: KIND 5 with the next slice's
# entries loaded into registers before this slice's mma.sync (next_kind5_prefetch.diff: 8-16 a lane, one A tile
# as now, so no loss of blocks an SM; 246 registers at VN 16 RPW 2, no spills; SASS: the loads issue before the
# barrier and the 256 HMMA). Unlike run49's try, which double-buffered A's tiles and lost a block an SM, this
# keeps the shared memory. Build: git worktree add /tmp/pf HEAD; git -C /tmp/pf apply
# docs/results/sparse/next_kind5_prefetch.diff; build there; cp /tmp/pf/dlbtune .gpu/dlbtune_pf.
# Prediction: at 2 blocks an SM (VN 16's registers) the chain of toff and tent loads (about 1000 cycles a slice)
# is exposed; hidden, the wide rows gain 10-25% (run50: 279-1751 us). Then gpu_spmm with the prefetch build.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for b in ./dlbtune .gpu/dlbtune_pf; do
	s=$(date +%s)
	n=$(basename $b)
	timeout -k 5 100 $b --op spmm --prec fp16 --suite docs/results/sparse/wide_rows.csv --only "KIND=5 " \
		--db /tmp/db5_$n --csv >$OUT/k5_$n.csv 2>$OUT/k5_$n.err
	echo "== KIND 5 alone, $n: exit $? in $(( $(date +%s) - s )) s"
	python3 docs/results/sparse/table.py $OUT/k5_$n.csv | grep -E "^\| [0-9]|geomean"
done
s=$(date +%s)
cp .gpu/dlbtune_pf ./dlbtune
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm (prefetch build): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed" $OUT/gspmm.log | cut -c1-200 | tail -8
