#!/bin/bash
# Device calls 92 for sparse (issue 29), prepared 2026-12-02 (docs/NOTES.md items 278, 279, 281, 282). Three
# builds, each a step on the one before:
#   .gpu/spbase/dlbtune  HEAD (the landed kernels);
#   .gpu/sp2/dlbtune     + next_seg_pairs.diff + next_nzv_groups.diff (run91 PART=2 measured the second: N <= 4
#                        rows 0.953 the time in fp32);
#   ./dlbtune            + next_k3_tma.diff (KIND 3's warps decoupled: B's slabs by the tensor copy engine, each
#                        slab issued by the last warp done with the one two before it, mbarriers instead of two
#                        __syncthreads a slab; a warp may run a slab ahead of the slowest).
# Build here: make, cp dlbtune .gpu/spbase/; git apply the first two diffs, make, cp dlbtune .gpu/sp2/; git apply
#   next_k3_tma.diff, make (./dlbtune); ../shared/gpu/bundle .gpu ./dlbtune. Carry dlbtune and .gpu.
# PART=1: gpu_spmm on ./dlbtune (every candidate of both precisions on the awkward problems, all three diffs;
#   about 210 s). Nothing lands unless it passes.
# PART=2: KIND 3 alone on the 12 wide rows (N >= 1500), fp32, the three builds in turn (about 85 s each); then ncu
#   on the 95% 7680x1500x2560 row's run90 winner with sp2 and ./dlbtune: time, issue, shared wavefronts and each
#   stall reason per issued instruction (the barrier's share is what the decoupling removes).
# PART=3: both suites whole on ./dlbtune (run90 fp32 1.746x; run50 fp16 2.045x), table.py and bound.py.
# Predictions:
#   sp2 over spbase (next_seg_pairs): wide rows 0.93-0.97 the time at 95%, 0.96-0.99 at 90%.
#   new over sp2 (next_k3_tma): 0.93-0.97 at WARPS 16 (a Python model of the slabs' imbalance: 0.91 of the
#   warps' time used with a barrier a slab, 0.98 with a slab of drift, if each warp's pace were its own), the
#   barrier stall share from ncu falling to about 0; the fp32 suite 1.746x -> 1.83-1.90x with all three.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/sparse
t0=$(date +%s)
bin_of() { case $1 in base) echo .gpu/spbase/dlbtune ;; sp2) echo .gpu/sp2/dlbtune ;; *) echo ./dlbtune ;; esac; }
case "${PART:-1}" in
1)
	DLB_REQUIRE_GPU=1 timeout -k 5 300 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
	echo "== gpu_spmm: exit $? at $(( $(date +%s) - t0 )) s"
	grep -E "FAIL|passed|failed" $OUT/gspmm.log | cut -c1-160 | tail -6
	gzip -f $OUT/gspmm.log
	;;
2)
	for b in base sp2 new; do
		timeout -s INT -k 5 150 $(bin_of $b) --op spmm --prec fp32 --suite $d/wide_rows.csv --only "KIND=3 " \
			--db /tmp/dbw_$b --csv >$OUT/w_$b.csv 2>/tmp/w_$b.err
		echo "== KIND 3 alone, wide rows, $b: exit $? at $(( $(date +%s) - t0 )) s"
	done
	python3 - $OUT/w_base.csv $OUT/w_sp2.csv $OUT/w_new.csv <<'PY'
import csv, math, sys
b, s, a = (list(csv.DictReader(open(f))) for f in sys.argv[1:4])
gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
t = lambda r: float(r["tuned_us"])
print("  %-24s %9s %9s %9s %7s %7s %8s  %s" % ("row", "base us", "sp2 us", "new us", "sp2/b", "new/sp2", "paired",
                                              "new winner"))
for x, y, z in zip(b, s, a):
    print("  %-24s %9s %9s %9s %7.3f %7.3f %8s  %s" % ("%sx%sx%s %s" % (x["m"], x["n"], x["k"], x["sparsity"]),
          x["tuned_us"], y["tuned_us"], z["tuned_us"], t(y) / t(x), t(z) / t(y), z["paired_speedup"], z["best_config"]))
for name, sel in (("95%", lambda r: r["sparsity"] == "0.95"), ("90%", lambda r: r["sparsity"] == "0.9"),
                  ("all", lambda r: True)):
    p = [(x, y, z) for x, y, z in zip(b, s, a) if sel(x)]
    if p:
        print("  %-4s sp2/base %.3f, new/sp2 %.3f; paired %.3f -> %.3f -> %.3f over %d rows" % (name,
            gm([t(y) / t(x) for x, y, _ in p]), gm([t(z) / t(y) for _, y, z in p]),
            gm([float(x["paired_speedup"]) for x, _, _ in p]), gm([float(y["paired_speedup"]) for _, y, _ in p]),
            gm([float(z["paired_speedup"]) for _, _, z in p]), len(p)))
PY
	grep -h " wrong" /tmp/w_*.err | grep -v " 0 wrong, 0 faults" | head -4
	cat /tmp/w_*.err | gzip >$OUT/w.err.gz
	m=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed,\
regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio
	for b in sp2 new; do
		timeout -k 5 100 ncu --target-processes all -k regex:'^spmm$' -c 1 --metrics "$m" $(bin_of $b) --op spmm \
			--m 7680 --n 1500 --k 2560 --sparsity 0.95 --only "KIND=3 TPR=32 VN=4 WARPS=16 RPW=16 BK=128" \
			--db /tmp/ncu_$b >$OUT/ncu_$b.txt 2>&1
		echo "== ncu, $b: exit $? at $(( $(date +%s) - t0 )) s"
		grep -E "^ +[a-z_]+__" $OUT/ncu_$b.txt | awk '$NF + 0 >= 0.05 || !/stalled/ {print "  ", $1, $(NF-1), $NF}'
	done
	;;
3)
	for p in fp32 fp16; do
		timeout -s INT -k 10 250 ./dlbtune --op spmm --prec $p --db /tmp/db_$p --csv >$OUT/suite_$p.csv \
			2>$OUT/suite_$p.err
		echo "== sparse suite $p: exit $? at $(( $(date +%s) - t0 )) s"
		python3 $d/table.py $OUT/suite_$p.csv | grep -E "geomean|^- "
		python3 $d/bound.py $OUT/suite_$p.csv | tail -5
		gzip -f $OUT/suite_$p.err
	done
	;;
esac
