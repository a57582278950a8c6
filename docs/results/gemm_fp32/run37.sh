#!/bin/bash
# Device call 37 for issue 30, 2026-11-28. run36's ncu source page showed why NT 4096x7133x4096 ran 1300 warp
# instructions a k-tile against cuBLAS's 1166: ldb = N = 7133 is not a multiple of 4, so vec_b was 0, and the tile
# kernel's "interior" test (which needed vec_a && vec_b) sent every tile through load_edge: 64-bit bounds checks,
# BSSY/BSYNC and predicated scalar loads on both operands, about 200 instructions a warp per k-tile. The fix:
# interior means in range only; each operand picks float4 or four unchecked scalar loads by its own alignment.
# (1) every KIND 0 candidate on gpu_gemm_verify's awkward fp32 shapes (they include unaligned operands in whole
# tiles: 35x1760x129, 127x131x67, 129x129x129); (2) DeepBench gemm_training's six NT rows with N = 7133, 7435,
# 5481, --fp32-math ffma, this build against .gpu/dlbtune_old (8f0c168's GEMM); (3) the same rows, full space.
# Prediction: NT 4096x7133x4096 from 62% of peak to 67-70%; the six rows' ffma paired geomean from ~0.78x to ~0.85x.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY="KIND=0" timeout -k 5 200 ./tests/gpu_gemm_verify fp32 >$OUT/verify.log 2>&1
echo "== gpu_gemm_verify fp32, KIND=0: exit $? at $(( $(date +%s) - t0 )) s"
grep -E "wrong|passed|failed" $OUT/verify.log | tail -4
for run in "dlbtune:ffma" ".gpu/dlbtune_old:ffma" "dlbtune:full"; do
	b=${run%%:*} m=${run#*:} n=$(basename $b)_$m
	[ $m = ffma ] && opt="--fp32-math ffma" || opt=""
	timeout -s INT -k 10 120 ./$b --op gemm --prec fp32 --suite docs/results/gemm_fp32/odd_nt.csv $opt \
		--db /tmp/db_$n --min-search 2 --csv >$OUT/$n.csv 2>$OUT/$n.err
	echo "== $n: exit $? at $(( $(date +%s) - t0 )) s"
	python3 - $OUT/$n.csv <<'PY'
import csv, math, sys
p = []
for r in csv.DictReader(open(sys.argv[1])):
    p.append(float(r["paired_speedup"]))
    print("  %5s %5s %5s %-58s %9s us %6s%% paired %s" % (r["m"], r["n"], r["k"], r["best_config"][:58], r["tuned_us"],
          r["pct_peak"], r["paired_vendor_us"] and r["paired_speedup"]))
if p:
    print("  paired geomean %.3f over %d rows" % (math.exp(sum(map(math.log, p)) / len(p)), len(p)))
PY
done
