#!/bin/bash
# Device call 39 for issue 30, 2026-11-28. run38 (ncu source page) on NN 5124x9124x2560: 16% of the stall samples
# were FFMAs waiting on the shared-memory fragment loads just before them (short scoreboard), the first FFMA of
# every depth. This build double-buffers the fragments: depth kk + 1's loads before depth kk's FFMAs, the next
# tile's depth 0 after the barrier and before the last depth's FFMAs. Cost: 229-235 registers for 128x64 BK16
# 8x8 (167 before), so 2 blocks an SM instead of 3. (1) gpu_gemm_verify, every KIND 0 candidate; (2) 12 shapes
# (ab_shapes.csv: run27's seven, two more NT, three mid-size), --fp32-math ffma, default search, this build
# against .gpu/dlbtune_old (db3fc57), in turn on one GPU. Prediction: the large NN/TN rows 3-6% faster; the
# smaller ones mixed (fewer blocks an SM).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY="KIND=0" timeout -k 5 200 ./tests/gpu_gemm_verify fp32 >$OUT/verify.log 2>&1
echo "== gpu_gemm_verify fp32, KIND=0: exit $? at $(( $(date +%s) - t0 )) s"
grep -E "wrong|passed|failed" $OUT/verify.log | tail -3
for b in .gpu/dlbtune_old dlbtune; do
	n=$(basename $b)
	timeout -s INT -k 10 170 ./$b --op gemm --prec fp32 --suite docs/results/gemm_fp32/ab_shapes.csv --fp32-math ffma \
		--db /tmp/db_$n --min-search 2 --csv >$OUT/$n.csv 2>$OUT/$n.err
	echo "== $n: exit $? at $(( $(date +%s) - t0 )) s"
done
python3 - $OUT/dlbtune_old.csv $OUT/dlbtune.csv <<'PY'
import csv, math, sys
old = {(r["m"], r["n"], r["k"], r["layout"]): r for r in csv.DictReader(open(sys.argv[1]))}
g = []
for r in csv.DictReader(open(sys.argv[2])):
    o = old.get((r["m"], r["n"], r["k"], r["layout"]))
    print("%5s %5s %5s %s | old %-40s %9s us %5s%% %s | new %-40s %9s us %5s%% %s" % (
        r["m"], r["n"], r["k"], r["layout"], o["best_config"][:40] if o else "-", o["tuned_us"] if o else "-",
        o["pct_peak"] if o else "-", o["paired_speedup"] if o else "-", r["best_config"][:40], r["tuned_us"],
        r["pct_peak"], r["paired_speedup"]))
    if o:
        g.append((math.log(float(o["paired_speedup"])), math.log(float(r["paired_speedup"]))))
if g:
    print("paired geomean over %d rows: old %.3f, new %.3f" % (len(g), math.exp(sum(x for x, _ in g) / len(g)),
          math.exp(sum(y for _, y in g) / len(g))))
PY
