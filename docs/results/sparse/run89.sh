#!/bin/bash
# Device calls 89 for sparse (issue 29), prepared and run 2026-11-30 on one NVIDIA H200 (logs/run89; NOTES 164).
# The build: next_nzv8.diff applied. KIND 0 and 4 read NZV 8 nonzeros a lane at once too (templates/spmm.cu's
# ld_nz: fp32 values in two 16-byte loads, fp16 in one; KIND 4's eight 16-bit columns in one, KIND 0's in two), the next
# group's loads issued while this group's rows of B are read, as NZV 4; VN <= 4 (docs/NOTES.md item 162). Why: the
# N = 1 rows run at 1.7x the measured floor (10752x1x3584 at 90%: 16.2 us for 23 MB) with at most one group of
# four nonzeros of each lane's row in flight beyond the gathers; twice the bytes in flight a lane, half the
# iterations a row. The NZV 4 kernels' code changed too (the same loads and order; ptxas gives 243 of 384
# sampled ones fewer registers, 18 more).
# Build here: .gpu/spbase/dlbtune is b8eba42's build (run88's base, the sparse code before this change; build it
# from a clone of b8eba42 if it is missing); then git apply docs/results/sparse/next_nzv8.diff, ./bootstrap,
# ./configure, make -j2 (./dlbtune: NZV 8).
# Carry dlbtune and .gpu.
# PART=1: gpu_spmm on this build (every candidate of both precisions on the awkward problems; about 230 s).
# PART=2: A/B on the 12 rows with N <= 4 (small_rows.csv), fp32 then fp16, default search, fresh databases, the
#   builds alternating their order by precision (about 50 s a build and precision).
# PART=3: the fp32 suite whole on this build (run85: 1.685x, run88: 1.673x; about 140 s).
# PART=4: the NZV 4 kernels alone on both builds (--only NZV=4), the 12 rows fp32: what the new code does to them.
# Prediction: the four N = 1 rows 0.85-0.95 the time (their winners NZV 8), the N = 2, 4 rows 0.95-1.0; the fp32
#   suite 1.685x -> 1.72-1.76x; the rows with N >= 1500 unchanged (KIND 3 wins them; NZV is not theirs).
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
	timeout -s INT -k 10 400 ./dlbtune --op spmm --prec fp32 --db /tmp/db_fp32 --csv >$OUT/suite_fp32.csv 2>$OUT/suite_fp32.err
	echo "== sparse suite fp32: exit $? at $(( $(date +%s) - t0 )) s"
	python3 $d/table.py $OUT/suite_fp32.csv | grep -E "geomean|^- "
	gzip -f $OUT/suite_fp32.err
	;;
4)
	tag=_nzv4
	ab fp32 --only NZV=4
	cat /tmp/s_*.err | gzip >$OUT/s4.err.gz
	;;
esac
