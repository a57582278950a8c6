# dlbtune report: the paired speedup per problem (vendor best / tuned, side by side), sorted, with its
# 95% CI; rows measured only apart show their unpaired speedup. Data: conv_fp16_1_speedup.csv
set terminal svg size 960,440 dynamic font 'sans,11' background rgb 'white'
set output 'conv_fp16_1_speedup.svg'
set datafile separator ','
set title "conv fp16 on NVIDIA H200 (132sm-140GiB-1980MHz-3201MHz), driver 13.0, CUDA 13.0" noenhanced
set xlabel 'problems, sorted'
set ylabel 'speedup over the vendor best (x)'
set logscale y 2
set grid ytics
set key top left
set xrange [0:104]
set yrange [0.5:4.27]
set format x '%.0f'
plot 'conv_fp16_1_speedup.csv' skip 1 using 1:3:4:5 with yerrorbars pt 7 ps 0.6 lc rgb '#1f5fa8' title 'speedup, 95% CI', 1 with lines dt 2 lc rgb '#555555' title 'even with the vendor'
