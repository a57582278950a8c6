# dlbtune report: the gemm family's own plot, speedup against N (columns of C). Data: gemm_fp32_5_by_n.csv
set terminal svg size 960,440 dynamic font 'sans,11' background rgb 'white'
set output 'gemm_fp32_5_by_n.svg'
set datafile separator ','
set title "speedup against N (columns of C): gemm fp32 on NVIDIA H200 (132sm-140GiB-1980MHz-3201MHz), driver 13.0, CUDA 13.0" noenhanced
set xlabel 'N'
set ylabel 'vendor best / tuned, paired (x)'
set grid xtics ytics
set key top left
set logscale y 2
set logscale x 2
set format x '%g'
set offsets graph 0.05, graph 0.05
plot 'gemm_fp32_5_by_n.csv' skip 1 using 2:3 with points pt 7 ps 0.8 lc rgb '#1f5fa8' title 'paired', 1 with lines dt 2 lc rgb '#555555' title 'even'
