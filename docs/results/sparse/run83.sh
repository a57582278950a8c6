#!/bin/bash
# Device call 83 (sparse, issue 29), prepared 2026-11-28 without device time. Build first:
#   git worktree add /tmp/k6s HEAD && git -C /tmp/k6s apply docs/results/sparse/next_kind6_stagedA.diff; build
#   dlbtune there; mkdir -p .gpu/k6s; cp /tmp/k6s/dlbtune /tmp/k6s/tests/gpu_spmm.sh .gpu/k6s/. Carry .gpu, dlbtune.
# next_kind6_stagedA.diff: KIND 6 with BK 64 stages A's blocks in shared memory (cp.async, the next block's
# copy in flight) and loads the next step's four rows of B before this step's FMAs, across blocks too. 96
# candidates more a precision, none spills; the 16x16 fp32 tile takes 144 registers where BK 32's took 206.
# (1) gpu_spmm with it (KIND 6 alone on the four BSR problems takes every BK 64 candidate: each verified);
# (2) block_rows.csv fp32 and fp16, the builds before (./dlbtune) and after, default search, fresh databases;
# (3) ncu on the 16x16 fp32 row's BK 64 tile.
# Prediction: 16x16 fp32 313 -> 200-240 us (1.36x -> 1.8-2.1x cuSPARSE's BSR), 8x8 303 -> 220-260; fp16 rows
# unchanged (KIND 7 and 5 win them). ncu: issue active 44% -> 65-80%, long-scoreboard stalls halved.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
DLB_REQUIRE_GPU=1 top_builddir=.gpu/k6s timeout -k 5 240 sh .gpu/k6s/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm (k6s): exit $? at $(( $(date +%s) - t0 )) s"
grep -E "FAIL|passed|failed|KIND [67]:" $OUT/gspmm.log | cut -c1-160 | tail -16
show() {
python3 - "$1" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("  %sx%sx%s %s %-14s | %-56s %9s us | %-18s %9s us | paired %s" % (r["m"], r["n"], r["k"], r["sparsity"],
          r["layout"], r["best_config"][:56], r["tuned_us"], r["cusparse_algo"], r["cusparse_us"], r["paired_speedup"]))
PY
}
for p in fp32 fp16; do
	for b in before after; do
		bin=./dlbtune; [ $b = after ] && bin=.gpu/k6s/dlbtune
		timeout -s INT -k 5 70 $bin --op spmm --prec $p --suite docs/results/sparse/block_rows.csv --db /tmp/blk${p}_$b \
			--csv >$OUT/blk${p}_$b.csv 2>/dev/null
		echo "== block rows $p ($b): exit $? at $(( $(date +%s) - t0 )) s"
		show $OUT/blk${p}_$b.csv
	done
done
m=gpu__time_duration.sum,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,\
l1tex__throughput.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed,\
sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
timeout -k 5 60 ncu --target-processes all -k regex:'^spmm$' -c 1 --metrics $m .gpu/k6s/dlbtune --op spmm --prec fp32 \
	--m 7680 --n 1500 --k 2560 --sparsity 0.9 --pattern block:16x16 --only "KIND=6 TPR=32 VN=4 WARPS=2 RPW=16 BK=64" \
	--db /tmp/ncu6.db >$OUT/ncu6.txt 2>&1
echo "== ncu fp32 KIND 6 BK 64: exit $?"
grep -E "^ +[a-z_0-9]+__" $OUT/ncu6.txt | awk '{print "  ", $1, $(NF-1), $NF}'
