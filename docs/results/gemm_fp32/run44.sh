#!/bin/bash
# Device call 44 for issue 30, 2026-11-28: run43 on the other split-K rows of the ffma suites (run30/31 winners with SPLITK > 1 and N > 16), in two halves: run44.sh split_rows_a.csv, then split_rows_b.csv (one call each). Otherwise as run43: The ffma suites' N > 16, < 1 GFLOP rows are at 0.889x (training), their
# winners small tiles with split-K 4-8. The last split of each tile sums the partials an element at a time
# (splitk_sum: a dependent L2 round trip for every element and every four splits, 32 for a 4x4 tile at split 8).
# This build (.gpu/sk) sums four rows of a column at a time, a float4 of each split, two splits in flight (16
# round trips for 4x4 at split 8), in the same order (same bits). (1) gpu_gemm_verify fp32 on every KIND 0
# candidate; (2) split_rows.csv (the 12 worst of those rows in run30/31), --fp32-math ffma, default search, the
# build before (.gpu/k6s: 9f6f607's GEMM) then after. Prediction: 1-3 us off the split rows (3-10%), none slower.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
[ -n "$VERIFY" ] && DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY="KIND=0" timeout -k 5 200 .gpu/sk/gpu_gemm_verify fp32 >$OUT/verify.log 2>&1
for b in k6s sk; do
	timeout -s INT -k 10 ${BUILD_S:-250} .gpu/$b/dlbtune --op gemm --prec fp32 --suite docs/results/gemm_fp32/${1:?rows csv} \
		--fp32-math ffma --db /tmp/db_$b --min-search 2 --csv >$OUT/$b.csv 2>$OUT/$b.err
	echo "== $b: exit $? at $(( $(date +%s) - t0 )) s"
done
python3 - $OUT/k6s.csv $OUT/sk.csv <<'PY'
import csv, math, sys
old = {(r["m"], r["n"], r["k"], r["layout"]): r for r in csv.DictReader(open(sys.argv[1]))}
g = []
def c(x):
    return x.replace(" KS=1 KU=4 L2PF=0 WGS=1 STAGES=3 ASPLIT=0", "").replace("KIND=0 ", "")
for r in csv.DictReader(open(sys.argv[2])):
    o = old.get((r["m"], r["n"], r["k"], r["layout"]))
    print("%5s %4s %5s %s | before %-34s %8s us %s | after %-34s %8s us %s" % (
        r["m"], r["n"], r["k"], r["layout"], c(o["best_config"]) if o else "-", o["tuned_us"] if o else "-",
        o["paired_speedup"] if o else "-", c(r["best_config"]), r["tuned_us"], r["paired_speedup"]))
    if o:
        g.append((math.log(float(o["paired_speedup"])), math.log(float(r["paired_speedup"]))))
if g:
    print("paired geomean over %d rows: before %.3f, after %.3f" % (len(g), math.exp(sum(x for x, _ in g) / len(g)),
          math.exp(sum(y for _, y in g) / len(g))))
PY
