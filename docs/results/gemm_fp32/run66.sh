#!/bin/bash
# Device calls 66 for issue 30, prepared 2026-12-02 without device time left (docs/NOTES.md items 258, 259).
# After run65 (KIND 3 landed) training's >= 1 GFLOP class is 0.940x, held down by TN (43 rows, 0.932x; KIND 0's
# tile). run64's TMA-fed TN probe (A's [m][k] boxes read four depths a row) ran 0.71/0.79/0.87x at BK 8/16/32
# with 206-238 registers (NN's form: 128). TN_XPOSE=1 has all threads transpose the stage's [m][k] box into a
# [k][m] tile (BM*BK/4/threads LDS.128 and four STS.32 each, one more barrier a k-tile), then runs NN's loop:
# 124-168 registers, no spills, the loop NN's instruction for instruction (nvcc, sm_90a).
# Build here:
#   for v in "x:" "t:-DTN_XPOSE=1"; do nvcc -std=c++17 -arch=sm_90a -O3 -DSERPENTINE=1 ${v#*:} -o .gpu/probe${v%%:*} \
#     docs/results/gemm_fp32/tma_ffma_probe.cu -lcublas -lcuda -L/usr/local/cuda/lib64/stubs; done
#   make -j2 && ../shared/gpu/bundle .gpu ./dlbtune   (the landed build, for PART=2). Carry dlbtune and .gpu.
# PART=1: both probes (x: run64's TN form, t: the transposing one) on six TN rows and one NN row (the NN configurations
#   are the same code in both builds: the noise), 15 pairs, L2 flushed, each configuration verified first.
# Prediction: t's best configuration a TN row 0.92-0.96x (x's 0.86-0.88x; KIND 0 in run65 0.86-0.93x on these
#   rows); t's configurations 5-10% faster than x's at BK 16 and 32. Under 0.92x: the transposition's barrier and
#   stores cost what the TMA saved, and TN stays with KIND 0.
# PART=2: the 6 training rows run65 did not reach (training_rest_rows.csv: 1024x48000xK TN, 512x32x512 and
#   1024x32x512 NT), ffma, default search, on the landed build (.gpu/gbase/dlbtune).
# The family (next_tma_tn.diff: KIND 3 takes TN as the transposing form; 157-214 registers, no spills, NN's
# kernels unchanged): build here, after the probes,
#   make -j2 && mkdir -p .gpu/gbase && cp dlbtune .gpu/gbase/
#   git apply docs/results/gemm_fp32/next_tma_tn.diff && make -j2 && make -j2 tests/gpu_gemm_verify
#   cp tests/gpu_gemm_verify .gpu/ && ../shared/gpu/bundle .gpu ./dlbtune tests/gpu_gemm_verify
# PART=3: `DLB_VERIFY_ONLY=KIND=3 gpu_gemm_verify fp32`: every KIND 3 candidate, NN and TN (129x7x1760 TN has an
#   M tail, 132x68x1764 a k tail), every split. Prediction: 0 wrong.
# PART=4: A/B on large_tnnt_rows.csv (8 TN, 2 NT rows >= 1 GFLOP), ffma, fresh databases, base then new.
#   Prediction: KIND 3 wins most TN rows, TN time 0.95-0.97 (run63's TN rows 0.904x -> 0.94-0.96x); NT unchanged.
# PART=5: gemm_training whole with ffma on the new build, run twice on one machine (the second reads the
#   first's rows back). Prediction: >= 1 GFLOP 0.940x -> 0.950-0.955x, TN 0.932x -> 0.95x.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
t0=$(date +%s)
case "${PART:-1}" in
1)
	rows="1760x7000x1760:TN 8448x24000x2816:TN 1760x7000x1756:TN 5124x9124x2048:TN 1024x24000x2048:TN 2560x7000x2560:TN 1024x6000x2560:NN"
	for v in x t; do
		timeout -k 5 240 .gpu/probe$v 15 $rows >$OUT/probe$v.txt 2>&1
		echo "== probe $v: exit $? at $(( $(date +%s) - t0 )) s"
	done
	python3 - $OUT/probex.txt $OUT/probet.txt <<'PY'
import math, re, sys
def rd(f):
    out, row = {}, None
    for l in open(f):
        m = re.match(r"(\d+x\d+x\d+ [NT]N)$", l.strip())
        if m: row = m.group(1); continue
        m = re.match(r"\s+(.*?C):\s+(\d+) regs.*?(right|WRONG).*?ours\s+([\d.]+) us.*paired cuBLAS/ours ([\d.]+)x", l)
        if m and row: out[(row, m.group(1))] = (m.group(3), float(m.group(4)), float(m.group(5)), m.group(2))
    return out
a, b = rd(sys.argv[1]), rd(sys.argv[2])
g = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
t = {}
for k in sorted(a):
    if k in b:
        print("  %-20s %-34s %s %s regs %s/%s  %.3fx -> %.3fx  time %.3f" % (k[0], k[1], a[k][0], b[k][0], a[k][3], b[k][3], a[k][2], b[k][2], b[k][1] / a[k][1]))
        t.setdefault(k[0][-2:], []).append(b[k][1] / a[k][1])
for lay, v in t.items(): print("  %s: time t/x %.3f over %d configuration-rows" % (lay, g(v), len(v)))
for o, dd in (("x", a), ("t", b)):
    best = {}
    for (row, cfg), (ok, us, sp, r) in dd.items():
        if row.endswith("TN") and ok == "right": best[row] = max(best.get(row, 0), sp)
    print("  %s: best TN configuration a row %s, geomean %.3fx" % (o, " ".join("%.3f" % best[r] for r in sorted(best)), g(list(best.values()))))
PY
	;;
2)
	bin=./dlbtune; [ -x .gpu/gbase/dlbtune ] && bin=.gpu/gbase/dlbtune
	timeout -s INT -k 10 560 $bin --op gemm --prec fp32 --suite $d/training_rest_rows.csv --db /tmp/db_rest \
		--min-search 2 --fp32-math ffma --csv >$OUT/training_rest_ffma.csv 2>$OUT/training_rest_ffma.err
	echo "== training_rest_rows ffma: exit $? at $(( $(date +%s) - t0 )) s"
	python3 $d/summary.py $OUT/training_rest_ffma.csv
	gzip -f $OUT/training_rest_ffma.err
	;;
3)
	DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY=KIND=3 DLB_VERIFY_CACHE=/tmp/kc timeout -s INT -k 5 560 .gpu/gpu_gemm_verify fp32 \
		>$OUT/verify.txt 2>&1
	echo "== gpu_gemm_verify fp32 KIND=3: exit $? at $(( $(date +%s) - t0 )) s"
	grep "gpu_gemm_verify" $OUT/verify.txt | tail -4
	gzip -f $OUT/verify.txt
	;;
4)
	for b in base new; do
		bin=./dlbtune; [ $b = base ] && bin=.gpu/gbase/dlbtune
		timeout -s INT -k 5 270 $bin --op gemm --prec fp32 --suite $d/large_tnnt_rows.csv --db /tmp/db_ab_$b \
			--min-search 2 --fp32-math ffma --csv >$OUT/large_tnnt_rows_$b.csv 2>/tmp/ab_$b.err
		echo "== large_tnnt_rows.csv, ffma, $b: exit $? at $(( $(date +%s) - t0 )) s"
	done
	for f in $OUT/large_tnnt_rows_base.csv $OUT/large_tnnt_rows_new.csv; do echo "  ${f##*/}:"; python3 $d/summary.py $f; done
	python3 $d/ab_rows.py $OUT/large_tnnt_rows_base.csv $OUT/large_tnnt_rows_new.csv base tn
	cat /tmp/ab_*.err | gzip >$OUT/ab.err.gz
	;;
5)
	s=gemm_training
	timeout -s INT -k 10 560 ./dlbtune --op gemm --prec fp32 --suite src/ops/gemm/suites/$s.csv \
		--db /tmp/db_$s --min-search 2 --fp32-math ffma --csv >$OUT/${s}_ffma.csv 2>$OUT/${s}_ffma.err
	echo "== $s ffma: exit $? at $(( $(date +%s) - t0 )) s"
	python3 $d/summary.py $OUT/${s}_ffma.csv
	gzip -f $OUT/${s}_ffma.err
	;;
esac
