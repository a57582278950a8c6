#!/bin/bash
# Device call 48 for issue 30, prepared 2026-11-28 (not run). run43/44 measured a split-K finish that sums a tile's
# partials a float4 and two splits at a time (0.864x -> 0.974x paired over 55 split rows), but it made ptxas spill
# in 7 KIND 0 kernels (compile_all failed), so it was not kept. next_splitk_finish.diff sums into acc instead, a
# split at a time, every float4 of the split in flight (predicated at the edges): 0 spills in compile_all's
# samples, 1 kernel of the whole KIND 0 space (2 before). Build: git worktree add /tmp/sy HEAD && git -C /tmp/sy
# apply docs/results/gemm_fp32/next_splitk_finish.diff; build there (make, then make check TESTS=); mkdir -p
# .gpu/sY; cp /tmp/sy/dlbtune /tmp/sy/tests/gpu_gemm_verify .gpu/sY/. Carry .gpu and dlbtune.
# Usage: run48.sh ROWS.csv... (split_rows.csv, split_rows_a.csv, split_rows_b.csv: one or two a call).
# (1) gpu_gemm_verify fp32 on every KIND 0 candidate (with VERIFY=1); (2) each CSV, --fp32-math ffma, default
# search, this tree's build (before) then .gpu/sY (after). Prediction: at least run43/44's gains (one round trip
# a split where run43's took two), no row slower beyond noise.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
if [ -n "$VERIFY" ]; then
	DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY="KIND=0" timeout -k 5 200 .gpu/sY/gpu_gemm_verify fp32 >$OUT/verify.log 2>&1
	echo "== gpu_gemm_verify fp32, KIND=0 (.gpu/sY): exit $? at $(( $(date +%s) - t0 )) s"
	grep -E "wrong|passed|failed" $OUT/verify.log | tail -3
fi
for rows in "$@"; do
	n=$(basename $rows .csv)
	for b in before after; do
		bin=./dlbtune; [ $b = after ] && bin=.gpu/sY/dlbtune
		timeout -s INT -k 10 ${BUILD_S:-250} $bin --op gemm --prec fp32 --suite docs/results/gemm_fp32/$rows \
			--fp32-math ffma --db /tmp/db_${n}_$b --min-search 2 --csv >$OUT/${n}_$b.csv 2>$OUT/${n}_$b.err
		echo "== $n $b: exit $? at $(( $(date +%s) - t0 )) s"
	done
	python3 - $OUT/${n}_before.csv $OUT/${n}_after.csv <<'PY'
import csv, math, sys
c = lambda x: x.replace(" KS=1 KU=4 L2PF=0 WGS=1 STAGES=3 ASPLIT=0", "").replace("KIND=0 ", "")
old = {(r["m"], r["n"], r["k"], r["layout"]): r for r in csv.DictReader(open(sys.argv[1]))}
g = []
for r in csv.DictReader(open(sys.argv[2])):
    o = old.get((r["m"], r["n"], r["k"], r["layout"]))
    print("%5s %5s %5s %s | before %-40s %8s us %s | after %-40s %8s us %s" % (r["m"], r["n"], r["k"], r["layout"],
          c(o["best_config"]) if o else "-", o["tuned_us"] if o else "-", o["paired_speedup"] if o else "-",
          c(r["best_config"]), r["tuned_us"], r["paired_speedup"]))
    if o:
        g.append((math.log(float(o["paired_speedup"])), math.log(float(r["paired_speedup"]))))
if g:
    print("paired geomean over %d rows: before %.3f, after %.3f" % (len(g), math.exp(sum(x for x, _ in g) / len(g)),
          math.exp(sum(y for _, y in g) / len(g))))
PY
done
