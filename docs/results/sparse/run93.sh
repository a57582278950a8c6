#!/bin/bash
# Device calls 93 for sparse (issue 29), 2026-12-03 (docs/NOTES.md item 284). Two builds:
#   .gpu/base/dlbtune  1684b17 (run92's kernels, landed);
#   ./dlbtune          + KIND 3's last wave shared out (templates/spmm.cu's k3_work, spmm.c's k3_schedule): whole
#                      blocks for every wave the SMs run full, the rest of the groups in pieces of fewer warps so
#                      that no SM idles while another runs a last block.
# Build here: make, cp the base build's dlbtune to .gpu/base/; ../shared/gpu/bundle .gpu ./dlbtune; carry dlbtune
#   and .gpu.
# PART=1: gpu_spmm on ./dlbtune (every candidate, both precisions, the awkward problems); then KIND 3 alone on the
#   12 wide rows, both builds. PART=2: both suites whole on ./dlbtune.
# Prediction: wide rows 0.94-0.97 the time (7680x1500: 360 blocks on 132 SMs, 2.73 waves run as 3, 0.91-0.94),
#   the fp32 suite 1.938x -> 1.97-2.01x.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/sparse
t0=$(date +%s)
bin_of() { case $1 in base) echo .gpu/base/dlbtune ;; *) echo ./dlbtune ;; esac; }
case "${PART:-1}" in
1)
	DLB_REQUIRE_GPU=1 timeout -k 5 300 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
	echo "== gpu_spmm: exit $? at $(( $(date +%s) - t0 )) s"
	grep -E "FAIL|passed|failed" $OUT/gspmm.log | cut -c1-160 | tail -6
	gzip -f $OUT/gspmm.log
	for b in base new; do
		timeout -s INT -k 5 150 $(bin_of $b) --op spmm --prec fp32 --suite $d/wide_rows.csv --only "KIND=3 " \
			--db /tmp/dbw_$b --csv >$OUT/w_$b.csv 2>/tmp/w_$b.err
		echo "== KIND 3 alone, wide rows, $b: exit $? at $(( $(date +%s) - t0 )) s"
	done
	python3 - $OUT/w_base.csv $OUT/w_new.csv <<'PY'
import csv, math, sys
b, a = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
t = lambda r: float(r["tuned_us"])
print("  %-24s %9s %9s %7s %8s  %s" % ("row", "base us", "new us", "new/b", "paired", "new winner"))
for x, z in zip(b, a):
    print("  %-24s %9s %9s %7.3f %8s  %s" % ("%sx%sx%s %s" % (x["m"], x["n"], x["k"], x["sparsity"]),
          x["tuned_us"], z["tuned_us"], t(z) / t(x), z["paired_speedup"], z["best_config"]))
for name, sel in (("95%", lambda r: r["sparsity"] == "0.95"), ("90%", lambda r: r["sparsity"] == "0.9"),
                  ("all", lambda r: True)):
    p = [(x, z) for x, z in zip(b, a) if sel(x)]
    if p:
        print("  %-4s new/base %.3f; paired %.3f -> %.3f over %d rows" % (name, gm([t(z) / t(x) for x, z in p]),
            gm([float(x["paired_speedup"]) for x, _ in p]), gm([float(z["paired_speedup"]) for _, z in p]), len(p)))
PY
	grep -h " wrong" /tmp/w_*.err | grep -v " 0 wrong, 0 faults" | head -4
	cat /tmp/w_*.err | gzip >$OUT/w.err.gz
	;;
2)
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
