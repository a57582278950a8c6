# dlbtune report: the spmm family's own plot, speedup wrt dense against sparsity. Data: spmm_fp32_7_wrt_dense.csv
set terminal svg size 960,440 dynamic font 'sans,11' background rgb 'white'
set output 'spmm_fp32_7_wrt_dense.svg'
set datafile separator ','
set title "speedup wrt dense against sparsity: spmm fp32 on NVIDIA H200 (132sm-140GiB-1980MHz-3201MHz), driver 13.0, CUDA 13.0" noenhanced
set xlabel 'sparsity'
set ylabel 'dense cuBLAS time / sparse time (x)'
set grid xtics ytics
set key top left
set logscale y 2
set offsets graph 0.05, graph 0.05
plot 'spmm_fp32_7_wrt_dense.csv' skip 1 using 2:3 with points pt 7 ps 0.8 lc rgb '#1f5fa8' title 'wrt dense', 'spmm_fp32_7_wrt_dense.csv' skip 1 using 2:4 with points pt 6 ps 0.8 lc rgb '#c0392b' title 'cuSP wrt dense', 1 with lines dt 2 lc rgb '#555555' title 'even'
