# dlbtune report: the conv family's own plot, speedup against the batch N. Data: conv_int8_3_by_batch.csv
set terminal svg size 960,440 dynamic font 'sans,11' background rgb 'white'
set output 'conv_int8_3_by_batch.svg'
set datafile separator ','
set title "speedup against the batch N: conv int8 on NVIDIA H200 (132sm-140GiB-1980MHz-3201MHz), driver 13.0, CUDA 13.0" noenhanced
set xlabel 'N'
set ylabel 'vendor best / tuned, paired (x)'
set grid xtics ytics
set key top left
set logscale y 2
set logscale x 2
set format x '%g'
set offsets graph 0.05, graph 0.05
plot 'conv_int8_3_by_batch.csv' skip 1 using 2:3 with points pt 7 ps 0.8 lc rgb '#1f5fa8' title 'paired', 1 with lines dt 2 lc rgb '#555555' title 'even'
