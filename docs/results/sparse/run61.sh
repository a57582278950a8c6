#!/bin/bash
# Device call 61 (sparse, issue 29), prepared 2026-11-28 without device time.
# Build first: git worktree add /tmp/k78 HEAD && git -C /tmp/k78 apply docs/results/sparse/next_kind7_8x8.diff;
# build there; mkdir -p .gpu/k78; cp /tmp/k78/dlbtune /tmp/k78/tests/gpu_spmm.sh .gpu/k78/. Carry .gpu and dlbtune.
# (1) gpu_spmm of next_kind7_8x8.diff: KIND 7 on 8x8 blocks too (the top half of an m16n8k8 fragment, the bottom
# zeros), verified alone on the 8x8, 16x16 and 32x32 problems; (2) block_rows.csv in fp16 with it: 7680x1500x2560
# at 90% in 8x8 blocks ran 296 us with KIND 5 (run60); (3) the fp32 suite again with this build (run59 was cut in
# its last row); (4) ncu on fp32 KIND 6's 16x16 winner (run58: 28% of the FFMA peak) and on fp16 KIND 7's.
# Prediction: 8x8 fp16 at 130-180 us (B's traffic from L2 twice 16x16's, half the tensor work wasted); fp32
# suite 1.64-1.65x; KIND 6's ncu: L1/LSU-bound (its block values read by every lane as uniform vector loads).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
DLB_REQUIRE_GPU=1 top_builddir=.gpu/k78 timeout -k 5 240 sh .gpu/k78/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm (k78): exit $? at $(( $(date +%s) - t0 )) s"
grep -E "FAIL|passed|failed|KIND [67]:" $OUT/gspmm.log | cut -c1-160 | tail -16
timeout -s INT -k 5 60 .gpu/k78/dlbtune --op spmm --prec fp16 --suite docs/results/sparse/block_rows.csv --db /tmp/dbb16 \
	--csv >$OUT/blk_fp16.csv 2>/dev/null
echo "== block rows fp16 (k78): exit $? at $(( $(date +%s) - t0 )) s"
python3 - $OUT/blk_fp16.csv <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("  %sx%sx%s %s %s | %-52s %9s us | %-16s %9s us | paired %s" % (r["m"], r["n"], r["k"], r["sparsity"],
          r["layout"], r["best_config"][:52], r["tuned_us"], r["cusparse_algo"], r["cusparse_us"], r["paired_speedup"]))
PY
timeout -s INT -k 10 170 ./dlbtune --op spmm --prec fp32 --db /tmp/db_fp32 --csv >$OUT/suite_fp32.csv 2>$OUT/suite_fp32.err
echo "== sparse suite fp32: exit $? at $(( $(date +%s) - t0 )) s"
python3 docs/results/sparse/table.py $OUT/suite_fp32.csv | grep -E "geomean|^- "
m=gpu__time_duration.sum,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,\
sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,l1tex__throughput.avg.pct_of_peak_sustained_active,\
lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,\
smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
for job in "fp32:KIND=6 TPR=32 VN=4 WARPS=2 RPW=16" "fp16:KIND=7 TPR=32 VN=1 WARPS=2 RPW=16"; do
	p=${job%%:*} cfg=${job#*:}
	timeout -k 5 60 ncu --target-processes all -k regex:'^spmm$' -c 1 --metrics $m ./dlbtune --op spmm --prec $p \
		--m 7680 --n 1500 --k 2560 --sparsity 0.9 --pattern block:16x16 --only "$cfg" --db /tmp/ncu_$p.db \
		>$OUT/ncu_$p.txt 2>&1
	echo "== ncu $p $cfg: exit $?"
	grep -E "^ +[a-z_0-9]+__" $OUT/ncu_$p.txt | awk '{print "  ", $1, $(NF-1), $NF}'
done
