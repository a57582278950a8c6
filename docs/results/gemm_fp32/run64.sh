#!/bin/bash
# Device call 64 for issue 30, 2026-12-01 (docs/NOTES.md item 253). With run63's SERPENTINE order landed in KIND 0,
# the five worst NN rows stand at 0.839-0.919x (geomean about 0.877x), level with run62's TMA-fed probe (0.881x)
# whose loop still has the old order (0.40 extra cycles an FFMA on sass_bank.py's model for 128x64 NN; 0.27 with
# the serpentine order). Does the probe gain from the order as KIND 0 did? If so, a TMA-fed FFMA kind with it is
# the next step for the >= 1 GFLOP class (0.918x and 0.936x).
# Build here: for o in 0 1; do nvcc -std=c++17 -arch=sm_90a -O3 -DSERPENTINE=$o -o .gpu/probe$o \
#   docs/results/gemm_fp32/tma_ffma_probe.cu -lcublas -lcuda -L/usr/local/cuda/lib64/stubs; done. Carry .gpu.
# PART=1: both probes on their default rows (five NN, one NN with a partial k-tile, three TN), 15 pairs.
# Prediction: the serpentine probe 3-6% faster on NN (its model moves 0.40 -> 0.27; run63's 0.10-0.14 bought
#   3-5%), its best NN configuration 0.90-0.93x geomean on the five rows; TN 0-4%.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
for o in 0 1; do
	timeout -k 5 90 .gpu/probe$o 15 >$OUT/probe$o.txt 2>&1
	echo "== probe, SERPENTINE $o: exit $? at $(( $(date +%s) - t0 )) s"
done
python3 - $OUT/probe0.txt $OUT/probe1.txt <<'PY'
import math, re, sys
def rd(f):
    out, row = {}, None
    for l in open(f):
        m = re.match(r"(\d+x\d+x\d+ [NT]N)$", l.strip())
        if m: row = m.group(1); continue
        m = re.match(r"\s+(.*?C):.*?(right|WRONG).*?ours\s+([\d.]+) us.*paired cuBLAS/ours ([\d.]+)x", l)
        if m and row: out[(row, m.group(1))] = (m.group(2), float(m.group(3)), float(m.group(4)))
    return out
a, b = rd(sys.argv[1]), rd(sys.argv[2])
g = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
t = {}
for k in sorted(a):
    if k in b:
        print("  %-22s %-36s %s %s  %.3fx -> %.3fx  time %.3f" % (k[0], k[1], a[k][0], b[k][0], a[k][2], b[k][2], b[k][1] / a[k][1]))
        t.setdefault(k[0][-2:], []).append(b[k][1] / a[k][1])
for lay, v in t.items(): print("  %s: time serpentine/row-by-row %.3f over %d" % (lay, g(v), len(v)))
for o, d in (("row by row", a), ("serpentine", b)):
    best = {}
    for (row, cfg), (ok, us, sp) in d.items():
        if row.endswith("NN") and not row.startswith("5124x700x2044"): best[row] = max(best.get(row, 0), sp)
    print("  %s: best NN configuration a row, geomean over %d rows %.3fx" % (o, len(best), g(list(best.values()))))
PY
