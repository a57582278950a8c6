#!/bin/bash
# Device call 40 for issue 30, prepared 2026-11-28 without device time. next_kind3_pipelined.diff: KIND 3 (the
# cp.async ring, every operand copied: run35's next_kind3_cpasync_all.diff, rebased on db3fc57) with CUTLASS's
# multistage order: fragments double-buffered in registers, depth kk + 1 loaded before depth kk's FFMAs, and at
# the last depth the wait, the one barrier and the next stage's depth 0 before the last FFMAs. Only with cuBLAS's
# 8x16 thread tile (TN 16), STAGES 3 or 4: 14 candidates more (407 in all), not run35's 348. SASS (sm_90a): 251-255
# registers, no spills, LDS.128 spread through the FFMAs as in cuBLAS's kernel (run36's source page).
# Build: git worktree add /tmp/k3 HEAD; git -C /tmp/k3 apply docs/results/gemm_fp32/next_kind3_pipelined.diff;
# build there; cp /tmp/k3/dlbtune .gpu/dlbtune_k3; cp /tmp/k3/tests/gpu_gemm_verify .gpu/gpu_gemm_verify_k3.
# Carry .gpu and dlbtune (this build, for the A/B). (1) every KIND 3 candidate verified on the awkward shapes;
# (2) KIND 3 alone (--only, each of its 256x128 tiles) on NN 5124x9124x2560 and NT 4096x7133x4096 against
# cuBLAS's 69.5% and 80% of peak; (3) the 12 ab_shapes rows, ffma, default search, this build against the k3 one.
# Prediction: 256x128 BK8 8x16 3 stages at 68-72% (NN) and 70-75% (NT), where run34's ring without the
# double-buffered fragments ran 57.5% and 62.3%; ab_shapes' geomean from 0.824x to 0.86-0.9x.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY="KIND=3" timeout -k 5 200 .gpu/gpu_gemm_verify_k3 fp32 >$OUT/verify.log 2>&1
echo "== gpu_gemm_verify fp32, KIND=3: exit $? at $(( $(date +%s) - t0 )) s"
grep -E "wrong|passed|failed" $OUT/verify.log | tail -3
for shape in "5124 9124 2560 0 0" "4096 7133 4096 0 1"; do
	read m n k ta tb <<<"$shape"
	for cfg in "BM=256 BN=128 BK=8 TM=8 TN=16 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=3" \
		"BM=256 BN=128 BK=8 TM=8 TN=16 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=4" \
		"BM=128 BN=128 BK=8 TM=8 TN=16 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=4" \
		"BM=256 BN=64 BK=8 TM=8 TN=16 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=4"; do
		timeout 60 .gpu/dlbtune_k3 --op gemm --prec fp32 --m $m --n $n --k $k --ta $ta --tb $tb --only "$cfg" \
			--power-ms 0 --db /tmp/db_k3one --csv >/tmp/one.csv 2>/tmp/one.err
		python3 - /tmp/one.csv "$cfg" "$m" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("  %s %-44s %9s us %6s%% peak, paired %s" % (sys.argv[3], sys.argv[2][:44], r["tuned_us"], r["pct_peak"],
          r["paired_speedup"]))
PY
	done
done
for b in ./dlbtune .gpu/dlbtune_k3; do
	n=$(basename $b)
	timeout -s INT -k 10 170 $b --op gemm --prec fp32 --suite docs/results/gemm_fp32/ab_shapes.csv --fp32-math ffma \
		--db /tmp/db_$n --min-search 2 --csv >$OUT/$n.csv 2>$OUT/$n.err
	echo "== $n: exit $? at $(( $(date +%s) - t0 )) s"
done
python3 - $OUT/dlbtune.csv $OUT/dlbtune_k3.csv <<'PY'
import csv, math, sys
old = {(r["m"], r["n"], r["k"], r["layout"]): r for r in csv.DictReader(open(sys.argv[1]))}
g = []
for r in csv.DictReader(open(sys.argv[2])):
    o = old.get((r["m"], r["n"], r["k"], r["layout"]))
    if not o:
        continue
    print("%5s %5s %5s %s | %-36s %6s%% %s | %-36s %6s%% %s" % (r["m"], r["n"], r["k"], r["layout"],
          o["best_config"][:36], o["pct_peak"], o["paired_speedup"], r["best_config"][:36], r["pct_peak"],
          r["paired_speedup"]))
    g.append((math.log(float(o["paired_speedup"])), math.log(float(r["paired_speedup"]))))
if g:
    print("paired geomean over %d rows: this build %.3f, k3 %.3f" % (len(g), math.exp(sum(x for x, _ in g) / len(g)),
          math.exp(sum(y for _, y in g) / len(g))))
PY
