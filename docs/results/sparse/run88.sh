#!/bin/bash
# Device calls 88 for sparse (issue 29), prepared 2026-11-29 (the tenth session), run 2026-11-30 on an H200 (logs/run88; not kept: spmm_pdl_tried.diff).
# spmm_pdl_tried.diff: every spmm kernel a programmatic dependent launch on sm_90 (spmm.c's launch_spmm), each
# kernel letting the next grid start and then waiting (griddepcontrol.wait) before its first global access
# (templates/spmm.cu's spmm_overlap_prior), as conv's run106 (docs/NOTES.md items 156, 158). The SpMV and N = 2, 4
# rows take 7-21 µs, of which a launch and ramp are a few; conv's 5 µs rows saved 0.5 µs in back-to-back pairs.
# Build here:
#   make -j2 && mkdir -p .gpu/spbase && cp dlbtune .gpu/spbase/                  (the landed build)
#   git apply docs/results/sparse/spmm_pdl_tried.diff && make -j2                 (./dlbtune: PDL)
# Carry dlbtune and .gpu.
# PART=1: gpu_spmm on the PDL build (every candidate of both precisions on the awkward problems; about 200 s).
# PART=2: A/B on the 12 rows with N <= 4 (small_rows.csv: DeepBench's four SpMV rows and run84's eight N = 2, 4),
#   fp32 then fp16, default search, fresh databases, the two builds alternating their order by precision
#   (about 80 s a build and precision).
# PART=3: the fp32 suite whole on the PDL build (run85: 1.685x, 330 s).
# Prediction: the 12 rows 0.3-0.6 µs faster each (3-6%), their paired speedups up by about as much (cuSPARSE's
#   launches do not change); the fp32 suite 1.685x -> 1.71-1.74x; rows of 100 µs and more unchanged (within 1%).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/sparse
t0=$(date +%s)
case "${PART:-1}" in
1)
	DLB_REQUIRE_GPU=1 timeout -k 5 280 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
	echo "== gpu_spmm: exit $? at $(( $(date +%s) - t0 )) s"
	grep -E "FAIL|passed|failed" $OUT/gspmm.log | cut -c1-160 | tail -6
	gzip -f $OUT/gspmm.log
	;;
2)
	for prec in fp32 fp16; do
		order="base pdl"; [ $prec = fp16 ] && order="pdl base"
		for b in $order; do
			bin=./dlbtune; [ $b = base ] && bin=.gpu/spbase/dlbtune
			timeout -s INT -k 5 120 $bin --op spmm --prec $prec --suite $d/small_rows.csv --db /tmp/dbs_$b$prec --csv \
				>$OUT/s_$b$prec.csv 2>/tmp/s_$b$prec.err
			echo "== N <= 4 rows, $prec, $b: exit $? at $(( $(date +%s) - t0 )) s"
		done
		python3 - $OUT/s_base$prec.csv $OUT/s_pdl$prec.csv <<'PY'
import csv, math, sys
b, a = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print("  %-22s %9s %9s %6s %8s %8s" % ("row", "base us", "pdl us", "ratio", "paired", "paired"))
for x, y in zip(b, a):
    print("  %-22s %9s %9s %6.3f %8s %8s" % ("%sx%sx%s %s" % (x["m"], x["n"], x["k"], x["sparsity"]), x["tuned_us"],
          y["tuned_us"], float(y["tuned_us"]) / float(x["tuned_us"]), x["paired_speedup"], y["paired_speedup"]))
print("  geomean: time ratio %.3f, paired %.3f -> %.3f over %d rows" % (
    gm([float(y["tuned_us"]) / float(x["tuned_us"]) for x, y in zip(b, a)]),
    gm([float(x["paired_speedup"]) for x in b]), gm([float(y["paired_speedup"]) for y in a]), len(a)))
PY
	done
	grep -h " wrong" /tmp/s_*.err | grep -v " 0 wrong, 0 faults" | head -4
	cat /tmp/s_*.err | gzip >$OUT/s.err.gz
	;;
3)
	timeout -s INT -k 10 400 ./dlbtune --op spmm --prec fp32 --db /tmp/db_fp32 --csv >$OUT/suite_fp32.csv 2>$OUT/suite_fp32.err
	echo "== sparse suite fp32: exit $? at $(( $(date +%s) - t0 )) s"
	python3 $d/table.py $OUT/suite_fp32.csv | grep -E "geomean|^- "
	gzip -f $OUT/suite_fp32.err
	;;
esac
