# dlbtune report: where the search spent its time. For the 3 problem(s) of the group with the most
# stored trials, the best time found so far over the final best, after each trial (in the order the
# search took them), against the trials evaluated and the GPU seconds they cost.
# Data: conv_int8_3_progress_N.csv
set terminal svg size 960,440 dynamic font 'sans,11' background rgb 'white'
set output 'conv_int8_3_progress.svg'
set datafile separator ','
set title "search progress: conv int8 on NVIDIA H200 (132sm-140GiB-1980MHz-3201MHz), driver 13.0, CUDA 13.0" noenhanced
unset title
set multiplot layout 1,2 title "search progress: conv int8 on NVIDIA H200 (132sm-140GiB-1980MHz-3201MHz), driver 13.0, CUDA 13.0" noenhanced
set ylabel 'best so far / final best'
set logscale y 2
set yrange [0.95:*]
set grid xtics ytics
set key top right
set xlabel 'trials evaluated'
plot 'conv_int8_3_progress_1.csv' skip 1 using 2:5 with steps lw 2 title '7x7 c512 n2 k512 3x3 pad 1 NHWC', 'conv_int8_3_progress_2.csv' skip 1 using 2:5 with steps lw 2 title '14x14 c256 n1 k1024 1x1 NHWC', 'conv_int8_3_progress_3.csv' skip 1 using 2:5 with steps lw 2 title '14x14 c256 n2 k1024 1x1 NHWC'
set xlabel 'GPU seconds'
plot 'conv_int8_3_progress_1.csv' skip 1 using 3:5 with steps lw 2 title '7x7 c512 n2 k512 3x3 pad 1 NHWC', 'conv_int8_3_progress_2.csv' skip 1 using 3:5 with steps lw 2 title '14x14 c256 n1 k1024 1x1 NHWC', 'conv_int8_3_progress_3.csv' skip 1 using 3:5 with steps lw 2 title '14x14 c256 n2 k1024 1x1 NHWC'
unset multiplot
