#!/bin/bash
# Device call 46 for issue 30: a DeepBench GEMM suite (run46.sh [training|inference_server], default training) in
# fp32 on one build, default search, --min-search 2, fresh databases. Run 2026-11-29 as HALF=0 then HALF=1 training
# (d58bc92: 1.023x with ffma, logs/run46). MATH (default ffma; MATH= the full space, 3xTF32 included). Two GPUs
# (nvidia-h200-x2): GPU 0 takes the even rows, GPU 1 the odd ones (as run30); one GPU: HALF=0 then HALF=1 in two
# calls, or HALF=all for every row in one (inference_server fits one call). Each stops (SIGINT: the rows done are
# written) at END seconds.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
suite=src/ops/gemm/suites/gemm_${1:-training}.csv
awk 'NR == 1 || NR % 2 == 0' $suite > /tmp/tr0.csv
awk 'NR == 1 || NR % 2 == 1' $suite > /tmp/tr1.csv
MATH=${MATH-ffma} # MATH= : the full space (3xTF32 too)
[ "$HALF" = all ] && cp $suite /tmp/trall.csv # HALF=all: every row on GPU 0 in one call (inference_server: ~400 s)
end=${END:-560}
# HALF=0, 1 or all: that half (or every row) alone on GPU 0 (a machine of one GPU)
halves="0 1"; [ -n "$HALF" ] && halves=$HALF
for g in $halves; do
	dev=$g; [ -n "$HALF" ] && dev=0
	CUDA_VISIBLE_DEVICES=$dev timeout -s INT -k 10 $end ./dlbtune --op gemm --prec fp32 --suite /tmp/tr$g.csv \
		--db /tmp/dbt$g --min-search 2 ${MATH:+--fp32-math $MATH} --csv >$OUT/tr$g.csv 2>$OUT/tr$g.err &
	pids="$pids $!"
done
wait $pids # a bare wait would also wait for the tee above (bash 5.1), which never ends
echo "== ${1:-training} ${MATH:-full space}, halves $halves: at $(( $(date +%s) - t0 )) s"
python3 - $(for g in $halves; do echo $OUT/tr$g.csv; done) <<'PY'
import csv, math, sys
rows = [r for f in sys.argv[1:] for r in csv.DictReader(open(f)) if r.get("paired_speedup")]
g = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
cls = {}
for r in rows:
    m, n, k = int(r["m"]), int(r["n"]), int(r["k"])
    c = "N <= 16" if n <= 16 else ("< 1 GFLOP" if 2 * m * n * k < 1e9 else ">= 1 GFLOP")
    cls.setdefault(c, []).append(float(r["paired_speedup"]))
print("rows %d, paired geomean %.3f" % (len(rows), g([x for v in cls.values() for x in v])))
for c, v in sorted(cls.items()):
    print("  %-11s %3d rows %.3f (min %.3f)" % (c, len(v), g(v), min(v)))
PY
