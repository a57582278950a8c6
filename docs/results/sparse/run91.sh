#!/bin/bash
# Device calls 91 for sparse (issue 29), prepared 2026-12-02 without a device (docs/NOTES.md items 278 and 279).
# The build: HEAD with next_seg_pairs.diff and next_nzv_groups.diff applied (two kernels, no code in common):
# - next_seg_pairs.diff (KIND 3, the wide rows): the slab-segmented copy starts every row on a 16-byte unit, so the
#   walk reads two entries with one LDS.128 (one broadcast wavefront) where it used two LDS.64; same FMAs, same
#   order, same bits. At the winners' 6.4 entries a row and slab: wavefronts a nonzero 5 -> about 4.6 (VN 4), 9 ->
#   about 8.6 (VN 8). test_sparse checks the layout (15 of 180 checks fail on the old segs.c).
# - next_nzv_groups.diff (KIND 0 and 4 with NZV 4 or 8, the rows with N <= 4): a row's nonzeros are read only in
#   the NZV-aligned groups that hold them, the first and last masked (no FMA for other rows' entries), the arrays
#   padded with zeros past the last group; two groups in flight before the first FMA, then one two ahead. Before,
#   the unaligned head and tail took a DRAM and an L2 round trip each, one after the other, around the groups
#   (SASS of the N = 1 winner, KIND 4 TPR 8 NZV 8: head, groups and tail in turn); after, row_ptr, then the
#   groups' six LDG.128 at once, then B's rows, then the FMAs (cuobjdump: 489 lines of SASS against 1689; 64
#   registers against 80).
#   The sum's order changes (each lane's groups in order, its head and tail inside them), so not the same bits.
# Build here: .gpu/spbase/dlbtune is HEAD's build (make, then copy dlbtune there); then git apply both diffs,
#   make -j2 (./dlbtune). Carry dlbtune and .gpu.
# PART=1: gpu_spmm on the new build (every candidate of both precisions on the awkward problems; about 210 s).
# PART=2: the 12 rows with N <= 4 (small_rows.csv), fp32 then fp16, default search, both builds in turn.
# PART=3: KIND 3 alone on the 12 rows with N >= 1500 (wide_rows.csv), fp32, both builds in turn.
# PART=4: the fp32 suite whole on the new build (run90: 1.746x), and bound.py.
# Prediction: N = 1 rows 0.80-0.90 the time (two DRAM and three L2 round trips fewer of about 4 us of work), N = 2, 4
#   0.85-0.95; wide rows 0.93-0.97 at 95%, 0.96-0.99 at 90%; the suite 1.746x -> 1.85-1.95x.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/sparse
t0=$(date +%s)
ab() { # ab PREC EXTRA...: both builds on small_rows.csv, then the table
	prec=$1; shift
	order="base new"; [ $prec = fp16 ] && order="new base"
	for b in $order; do
		bin=./dlbtune; [ $b = base ] && bin=.gpu/spbase/dlbtune
		timeout -s INT -k 5 120 $bin --op spmm --prec $prec --suite $d/small_rows.csv --db /tmp/dbs_$b$prec$tag "$@" \
			--csv >$OUT/s_$b$prec$tag.csv 2>/tmp/s_$b$prec$tag.err
		echo "== N <= 4 rows, $prec$tag, $b: exit $? at $(( $(date +%s) - t0 )) s"
	done
	python3 - $OUT/s_base$prec$tag.csv $OUT/s_new$prec$tag.csv <<'PY'
import csv, math, sys
b, a = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print("  %-22s %9s %9s %6s %8s %8s  %s" % ("row", "base us", "new us", "ratio", "paired", "paired", "new winner"))
for x, y in zip(b, a):
    print("  %-22s %9s %9s %6.3f %8s %8s  %s" % ("%sx%sx%s %s" % (x["m"], x["n"], x["k"], x["sparsity"]), x["tuned_us"],
          y["tuned_us"], float(y["tuned_us"]) / float(x["tuned_us"]), x["paired_speedup"], y["paired_speedup"],
          y["best_config"]))
for name, sel in (("N = 1", lambda r: r["n"] == "1"), ("N = 2, 4", lambda r: r["n"] != "1"), ("all", lambda r: True)):
    p = [(x, y) for x, y in zip(b, a) if sel(x)]
    print("  %-8s time ratio %.3f, paired %.3f -> %.3f over %d rows" % (name,
        gm([float(y["tuned_us"]) / float(x["tuned_us"]) for x, y in p]),
        gm([float(x["paired_speedup"]) for x, _ in p]), gm([float(y["paired_speedup"]) for _, y in p]), len(p)))
PY
}
case "${PART:-1}" in
1)
	DLB_REQUIRE_GPU=1 timeout -k 5 300 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
	echo "== gpu_spmm: exit $? at $(( $(date +%s) - t0 )) s"
	grep -E "FAIL|passed|failed" $OUT/gspmm.log | cut -c1-160 | tail -6
	gzip -f $OUT/gspmm.log
	;;
2)
	tag=
	ab fp32
	ab fp16
	grep -h " wrong" /tmp/s_*.err | grep -v " 0 wrong, 0 faults" | head -4
	cat /tmp/s_*.err | gzip >$OUT/s.err.gz
	;;
3)
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
4)
	timeout -s INT -k 10 400 ./dlbtune --op spmm --prec fp32 --db /tmp/db_fp32 --csv >$OUT/suite_fp32.csv 2>$OUT/suite_fp32.err
	echo "== sparse suite fp32: exit $? at $(( $(date +%s) - t0 )) s"
	python3 $d/table.py $OUT/suite_fp32.csv | grep -E "geomean|^- "
	python3 $d/bound.py $OUT/suite_fp32.csv | tail -5
	gzip -f $OUT/suite_fp32.err
	;;
esac
