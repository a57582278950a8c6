#!/bin/bash
# Device call 95 for sparse (issue 29), 2026-12-03 (docs/NOTES.md item 287): the harness's L2 flush.
# Two builds: ./dlbtune (70e9d7b: the flush is a cudaMemsetAsync of 2x L2, which leaves L2 full of dirty lines)
# and .gpu/clean/dlbtune (the flush reads the buffer instead: src/bench.c's flush_l2), and .gpu/flush_probe
# (flush_probe.cu: a streaming read of 8-31 MB timed as the harness does, after each kind of flush).
# Build here: make; the clean build in a worktree, its dlbtune copied to .gpu/clean/; nvcc -O2 -arch=sm_90
#   -o .gpu/flush_probe docs/results/sparse/flush_probe.cu; ./dlbtune compile --op spmm --prec fp32 --arch sm_90a
#   --db .gpu/dbseed (the kernel cache both builds start from); ../shared/gpu/bundle .gpu ./dlbtune; carry
#   dlbtune and .gpu.
# PART=1: the probe, then the fp32 suite whole with each build in turn.
# Prediction: the probe's dirty flush costs a launch of 8 MB about as much again as its own reads at the
#   harness's reps (2-3 a sample); clean and read agree. The suite: the N <= 4 rows 0.65-0.85 of their old time
#   on both sides, the wide rows within 1-2%; 10752x1x3584 at 90% near 60-70% of HBM.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/sparse
t0=$(date +%s)
bin_of() { case $1 in old) echo ./dlbtune ;; *) echo .gpu/clean/dlbtune ;; esac; }
case "${PART:-1}" in
1)
	timeout -k 5 60 .gpu/flush_probe >$OUT/probe.csv
	echo "== probe: exit $? at $(( $(date +%s) - t0 )) s"
	column -s, -t $OUT/probe.csv
	for b in old clean; do
		rm -rf /tmp/db_$b && cp -r .gpu/dbseed /tmp/db_$b
		timeout -s INT -k 10 250 $(bin_of $b) --op spmm --prec fp32 --db /tmp/db_$b --csv >$OUT/suite_$b.csv \
			2>$OUT/suite_$b.err
		echo "== sparse suite fp32, $b: exit $? at $(( $(date +%s) - t0 )) s"
		python3 $d/table.py $OUT/suite_$b.csv | grep -E "geomean|^- "
		gzip -f $OUT/suite_$b.err
	done
	python3 - $OUT/suite_old.csv $OUT/suite_clean.csv <<'PY'
import csv, math, sys
b, a = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
f = lambda r, c: float(r[c])
print("  %-22s %8s %8s %6s %8s %8s %6s %7s %7s %6s %6s" % ("row", "ours old", "new", "n/o", "vend old", "new", "n/o",
      "pair o", "pair n", "%hbm o", "%hbm n"))
for x, z in zip(b, a):
    print("  %-22s %8.2f %8.2f %6.3f %8.2f %8.2f %6.3f %7.3f %7.3f %6s %6s" % ("%sx%sx%s %s" % (x["m"], x["n"],
          x["k"], x["sparsity"]), f(x, "tuned_us"), f(z, "tuned_us"), f(z, "tuned_us") / f(x, "tuned_us"),
          f(x, "cusparse_us"), f(z, "cusparse_us"), f(z, "cusparse_us") / f(x, "cusparse_us"),
          f(x, "paired_speedup"), f(z, "paired_speedup"), x["tuned_pct_hbm"], z["tuned_pct_hbm"]))
for name, sel in (("N=1", lambda r: r["n"] == "1"), ("N=2,4", lambda r: r["n"] in ("2", "4")),
                  ("wide", lambda r: int(r["n"]) >= 1500), ("all", lambda r: True)):
    p = [(x, z) for x, z in zip(b, a) if sel(x)]
    print("  %-6s ours new/old %.3f, cuSPARSE new/old %.3f; paired %.3f -> %.3f (%d rows)" % (name,
          gm([f(z, "tuned_us") / f(x, "tuned_us") for x, z in p]),
          gm([f(z, "cusparse_us") / f(x, "cusparse_us") for x, z in p]),
          gm([f(x, "paired_speedup") for x, _ in p]), gm([f(z, "paired_speedup") for _, z in p]), len(p)))
PY
	;;
esac
