#!/bin/bash
# Device call 46 for issue 30, prepared 2026-11-28 (not run): a DeepBench GEMM suite (run46.sh [training|inference_server],
# default training) in fp32 with --fp32-math ffma on one build (with next_splitk_finish.diff, once run48 has kept it), to
# check item 125's estimate (training 0.982x -> about 1.014x, inference_server 1.085x -> about 1.092x). Needs
# nvidia-h200-x2 (or HALF=0 then HALF=1 on one GPU): GPU 0 takes the even rows, GPU 1 the odd ones (as run30), default search, --min-search 2, fresh
# databases; each half stops (SIGINT: the rows done are written) at END seconds.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
suite=src/ops/gemm/suites/gemm_${1:-training}.csv
awk 'NR == 1 || NR % 2 == 0' $suite > /tmp/tr0.csv
awk 'NR == 1 || NR % 2 == 1' $suite > /tmp/tr1.csv
end=${END:-560}
# HALF=0 or 1: that half alone on GPU 0 (a machine of one GPU: the two halves in two calls)
halves="0 1"; [ -n "$HALF" ] && halves=$HALF
for g in $halves; do
	dev=$g; [ -n "$HALF" ] && dev=0
	CUDA_VISIBLE_DEVICES=$dev timeout -s INT -k 10 $end ./dlbtune --op gemm --prec fp32 --suite /tmp/tr$g.csv \
		--db /tmp/dbt$g --min-search 2 --fp32-math ffma --csv >$OUT/tr$g.csv 2>$OUT/tr$g.err &
	pids="$pids $!"
done
wait $pids # a bare wait would also wait for the tee above (bash 5.1), which never ends
echo "== ${1:-training} ffma, both halves: at $(( $(date +%s) - t0 )) s"
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
