#!/bin/sh
# The sparsity sweep as a plot: speedup wrt dense cuBLAS (as DeepBench reports it) of ours and of cuSPARSE's best
# against the sparsity, from a `dlbtune --op spmm --sparsity A:B:S --csv` run. Usage: sweep_plot.sh SWEEP.CSV OUT.SVG
# [TITLE]. Needs gnuplot and python3.
set -e
csv=$1 svg=$2 title=${3:-sweep}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$csv" >"$tmp/d.dat" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r["sparsity"], r["speedup_wrt_dense"], r["cusparse_wrt_dense"])
PY
gnuplot <<GP
set terminal svg size 720,420 font 'sans,11'
set output '$svg'
set title '$title'
set xlabel 'sparsity'
set ylabel 'speedup wrt dense cuBLAS'
set logscale y
set grid
set key top left
set xrange [0.69:1.0]
plot '$tmp/d.dat' using 1:2 with linespoints pt 7 ps 0.5 lc rgb '#1f5fa8' title 'dlbtune', \
     '' using 1:3 with linespoints pt 5 ps 0.5 lc rgb '#c0392b' title 'cuSPARSE best', \
     1 with lines lw 1.5 lc rgb '#555555' title 'dense (1x)'
GP
