#!/bin/bash
# Device call 62 for issue 30, prepared 2026-12-01 without a device (docs/NOTES.md item 249).
# Is the ffma >= 1 GFLOP gap (0.890x; the space's best 0.83-0.87x on the five worst rows, item 184) the per-thread
# work between k-tiles? run52's ncu source page had 27% of the FFMA tile's stall samples there (global loads with
# 64-bit addresses rebuilt every tile, 32 STS, the barrier); cp.async (item 174) and compiled-in leading
# dimensions (item 216) shrank parts of it and changed ptxas's FFMA schedule instead. tma_ffma_probe.cu (this
# folder) feeds the same 8x8 thread tile from a ring of TMA boxes (one thread issues two a k-tile; nothing per
# thread between k-tiles but a barrier and an mbarrier wait): its k-loop is 1160 instructions for 1024 FFMA
# (88%; dlbtune's 64x64 tile 1800, its 128x128 1460; cuBLAS's 256x128x8 1154). But its registers fall worse on
# the two-bank model (sass_bank.py's simulated extra cycles an FFMA 0.38 with scalar stores of C, 0.59 with
# float4 ones; dlbtune's tiles 0.17-0.22, cuBLAS's 0.055), so the probe also tests that model: the float4 and
# scalar-store forms differ only in ptxas's register assignment.
# Build here: nvcc -std=c++17 -arch=sm_90a -O3 -o .gpu/tma_ffma_probe docs/results/gemm_fp32/tma_ffma_probe.cu
#   -lcublas -lcuda -L/usr/local/cuda/lib64/stubs; and HEAD's dlbtune (bundled). Carry dlbtune and .gpu. About 350 s.
# PART=1: the probe on the five worst NN rows and one with K % 32 != 0, and on three TN rows (1760x7000x1760 and
#   8448x24000x2816, run46 0.849x and 0.833x, and 1760x7000x1756; A's boxes as [m][k] there, four depths of a row
#   in one LDS.128 as B's) (each configuration verified against cuBLAS, then 15 pairs);
#   then dlbtune's default ffma search on the same rows, for its paired figure on this machine.
# Prediction: the probe's best configuration at 0.90-0.97x of cuBLAS on these rows (dlbtune's 0.83-0.87x), the
#   scalar-store form 3-8% faster than the float4 one if the bank model holds. At or under 0.87x: the work between
#   k-tiles is not the gap and a TMA-fed FFMA family is not worth building.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
t0=$(date +%s)
case "${PART:-1}" in
1)
	timeout -k 5 240 .gpu/tma_ffma_probe 15 >$OUT/probe.txt 2>&1
	echo "== tma_ffma_probe: exit $? at $(( $(date +%s) - t0 )) s"
	cat $OUT/probe.txt
	(head -n 1 $d/large_rows.csv; sed -n 2,6p $d/large_rows.csv; echo 1760,7000,1760,1,0; echo 8448,24000,2816,1,0) \
		>/tmp/worst5.csv
	timeout -s INT -k 5 240 ./dlbtune --op gemm --prec fp32 --suite /tmp/worst5.csv --fp32-math ffma --min-search 2 \
		--db /tmp/dbd --csv >$OUT/default.csv 2>$OUT/default.err
	echo "== dlbtune default ffma search: exit $? at $(( $(date +%s) - t0 )) s"
	python3 - $OUT/default.csv <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("  %sx%sx%s %s: %s us (%s), paired %sx" % (r["m"], r["n"], r["k"], r["layout"], r["tuned_us"],
          r["best_config"], r["paired_speedup"]))
PY
	gzip -f $OUT/default.err
	;;
esac
