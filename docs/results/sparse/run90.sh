#!/bin/bash
# Device calls 90 for sparse (issue 29), prepared 2026-12-01 without a device (docs/NOTES.md item 247).
# The build: next_kind3_lean.diff applied. KIND 3's walk of a slab addresses its entries and its slab rows as
# shared-window byte offsets: a lane's VN columns of slab row c at lb + (c << log2(BN bytes)), one LEA a nonzero
# (the compiler rebuilt (c * BN + lane offset) * 4 + base, two IMADs, for every nonzero), the entries read two at
# a time without the entry carried an iteration ahead (three moves a pair). The same FMAs in the same order, so the
# same bits. Static, sm_90a (cuobjdump): the two-nonzero loop 24 -> 17 instructions (VN 4, fp32), 34 -> 27 (VN 8);
# a slab's whole walk 818 -> 535 (the 95% rows' winner, VN 4 RPW 16 BK 128) and 529 -> 401 (VN 8 RPW 8 BK 64);
# fp16 957 -> 768 and 701 -> 590; 114 -> 126 registers (VN 4; at most 128 at 512 threads), no spills in either
# precision's whole space (tests/spmm_cli.sh). run54's ncu had the 95% row's KIND 3 at 16.4 instructions a warp
# and nonzero (FFMA 24.5% of them), issue active 55%, FMA pipe 33%, shared-memory wavefronts at 62% of peak.
# Build here: .gpu/spbase/dlbtune is HEAD's build without the diff (make, then copy dlbtune there); then
# git apply docs/results/sparse/next_kind3_lean.diff, make -j2 (./dlbtune: the lean walk). Carry dlbtune and .gpu.
# PART=1: gpu_spmm on the lean build (every candidate of both precisions on the awkward problems; about 200 s).
# PART=2: KIND 3 alone (--only "KIND=3 ") on the 12 rows with N >= 1500 (wide_rows.csv), fp32, both builds in
#   turn, fresh databases; per-row times and the ratio (about 2 x 120 s).
# PART=3: the fp32 suite whole on the lean build (run89: 1.711x; about 150 s).
# PART=4: ncu on the 95% row's winner with both builds (run54: 193.8 M warp instructions, 16.4 a warp and nonzero;
#   predicted about 11.5 with the lean walk: a row's bookkeeping 27 -> 16 instructions, a pair 24 -> 17).
# Prediction: the 95% rows 0.80-0.90 the time (issue- and latency-bound there), the 90% rows 0.92-0.98 (nearer the
#   shared-memory ceiling); the fp32 suite 1.711x -> 1.76-1.82x. Under 0.98 on the 95% rows: the instructions
#   were not what bound them, and the diff is not kept.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/sparse
t0=$(date +%s)
case "${PART:-1}" in
1)
	DLB_REQUIRE_GPU=1 timeout -k 5 300 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
	echo "== gpu_spmm: exit $? at $(( $(date +%s) - t0 )) s"
	grep -E "FAIL|passed|failed" $OUT/gspmm.log | cut -c1-160 | tail -6
	gzip -f $OUT/gspmm.log
	;;
2)
	for b in base new; do
		bin=./dlbtune; [ $b = base ] && bin=.gpu/spbase/dlbtune
		timeout -s INT -k 5 200 $bin --op spmm --prec fp32 --suite $d/wide_rows.csv --only "KIND=3 " \
			--db /tmp/dbw_$b --csv >$OUT/w_$b.csv 2>/tmp/w_$b.err
		echo "== KIND 3 alone, wide rows, $b: exit $? at $(( $(date +%s) - t0 )) s"
	done
	python3 - $OUT/w_base.csv $OUT/w_new.csv <<'PY'
import csv, math, sys
b, a = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print("  %-24s %9s %9s %6s %8s %8s  %s" % ("row", "base us", "new us", "ratio", "paired", "paired", "new winner"))
for x, y in zip(b, a):
    print("  %-24s %9s %9s %6.3f %8s %8s  %s" % ("%sx%sx%s %s" % (x["m"], x["n"], x["k"], x["sparsity"]), x["tuned_us"],
          y["tuned_us"], float(y["tuned_us"]) / float(x["tuned_us"]), x["paired_speedup"], y["paired_speedup"],
          y["best_config"]))
for name, sel in (("95%", lambda r: r["sparsity"] == "0.95"), ("90%", lambda r: r["sparsity"] == "0.9"),
                  ("all", lambda r: True)):
    p = [(x, y) for x, y in zip(b, a) if sel(x)]
    if p:
        print("  %-4s time ratio %.3f, paired %.3f -> %.3f over %d rows" % (name,
            gm([float(y["tuned_us"]) / float(x["tuned_us"]) for x, y in p]),
            gm([float(x["paired_speedup"]) for x, _ in p]), gm([float(y["paired_speedup"]) for _, y in p]), len(p)))
PY
	grep -h " wrong" /tmp/w_*.err | grep -v " 0 wrong, 0 faults" | head -4
	cat /tmp/w_*.err | gzip >$OUT/w.err.gz
	;;
3)
	timeout -s INT -k 10 400 ./dlbtune --op spmm --prec fp32 --db /tmp/db_fp32 --csv >$OUT/suite_fp32.csv 2>$OUT/suite_fp32.err
	echo "== sparse suite fp32: exit $? at $(( $(date +%s) - t0 )) s"
	python3 $d/table.py $OUT/suite_fp32.csv | grep -E "geomean|^- "
	python3 $d/bound.py $OUT/suite_fp32.csv | tail -5
	gzip -f $OUT/suite_fp32.err
	;;
4)
	# ncu on the 95% row's winner, both builds: instructions, issue and the pipes (run54's metrics)
	m=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed,\
smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
	for b in base new; do
		bin=./dlbtune; [ $b = base ] && bin=.gpu/spbase/dlbtune
		timeout -k 5 100 ncu --target-processes all -k regex:'^spmm$' -c 1 --metrics $m $bin --op spmm --m 7680 \
			--n 1500 --k 2560 --sparsity 0.95 --only "KIND=3 TPR=32 VN=4 WARPS=16 RPW=16 BK=128" \
			--db /tmp/ncu_$b >$OUT/ncu_$b.txt 2>&1
		echo "== ncu, $b: exit $? at $(( $(date +%s) - t0 )) s"
		grep -E "^ +[a-z_]+__" $OUT/ncu_$b.txt | awk '{print "  ", $1, $(NF-1), $NF}'
	done
	;;
esac
