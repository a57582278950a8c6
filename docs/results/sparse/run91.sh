#!/bin/bash
# Device calls 91 for sparse (issue 29), prepared 2026-12-02 without a device (docs/NOTES.md item 278).
# The build: next_seg_pairs.diff applied. The slab-segmented copy (segs.c) starts every row of a segment on a
# 16-byte unit (a row with an odd count of a slice's nonzeros is followed by one zero entry), so KIND 3 reads two
# entries with one LDS.128 (one broadcast wavefront) where it used two LDS.64 (two), and skips the gap after a
# row's odd entry. The same FMAs in the same order, so the same bits. At the winners' 6.4 entries a row and slab
# (95%: VN 4, BK 128; 90%: VN 8, BK 64) a warp's wavefronts a nonzero fall from 5 to about 4.6 (VN 4) and from 9 to
# about 8.6 (VN 8); run90's ncu had the walk waiting on shared memory (wavefronts at 67% of peak, issue 44%).
# Static, sm_90a: registers -5 to +4 over KIND 3's 172 fp32 candidates, no spills; one instruction fewer a row
# (RPW 16: 2096 -> 2080). test_sparse checks the new layout (fails 15 of 180 checks on the old segs.c).
# Build here: .gpu/spbase/dlbtune is HEAD's build without the diff (make, then copy dlbtune there); then
# git apply docs/results/sparse/next_seg_pairs.diff, make -j2 (./dlbtune: the paired entries). Carry dlbtune, .gpu.
# PART=1: gpu_spmm on the new build (every candidate of both precisions on the awkward problems; about 210 s).
# PART=2: KIND 3 alone (--only "KIND=3 ") on the 12 rows with N >= 1500 (wide_rows.csv), fp32, both builds in
#   turn, fresh databases; per-row times and the ratio (about 2 x 120 s).
# PART=3: the fp32 suite whole on the new build (run90: 1.746x; about 150 s).
# PART=4: ncu on the 95% row's winner with both builds (run90: 148.4 M warp instructions, wavefronts 67.2%).
# Prediction: the 95% rows (VN 4) 0.93-0.97 the time, the 90% rows (VN 8) 0.96-0.99; the suite 1.746x -> 1.77-1.80x.
#   Over 0.99 on the 95% rows: entry wavefronts were not what bound the walk, and the diff is not kept.
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
