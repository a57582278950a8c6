# dlbtune report: where the search spent its time. For the 3 problem(s) of the group with the most
# stored trials, the best time found so far over the final best, after each trial (in the order the
# search took them), against the trials evaluated and the GPU seconds they cost.
# Data: gemm_fp32_5_progress_N.csv
set terminal svg size 960,440 dynamic font 'sans,11' background rgb 'white'
set output 'gemm_fp32_5_progress.svg'
set datafile separator ','
set title "search progress: gemm fp32 on NVIDIA H200 (132sm-140GiB-1980MHz-3201MHz), driver 13.0, CUDA 13.0" noenhanced
unset title
set multiplot layout 1,2 title "search progress: gemm fp32 on NVIDIA H200 (132sm-140GiB-1980MHz-3201MHz), driver 13.0, CUDA 13.0" noenhanced
set ylabel 'best so far / final best'
set logscale y 2
set yrange [0.95:*]
set grid xtics ytics
set key top right
set xlabel 'trials evaluated'
plot 'gemm_fp32_5_progress_1.csv' skip 1 using 2:5 with steps lw 2 title '4608x1x1536 NN', 'gemm_fp32_5_progress_2.csv' skip 1 using 2:5 with steps lw 2 title '6144x1x2048 NN', 'gemm_fp32_5_progress_3.csv' skip 1 using 2:5 with steps lw 2 title '512x2x512 NN'
set xlabel 'GPU seconds'
plot 'gemm_fp32_5_progress_1.csv' skip 1 using 3:5 with steps lw 2 title '4608x1x1536 NN', 'gemm_fp32_5_progress_2.csv' skip 1 using 3:5 with steps lw 2 title '6144x1x2048 NN', 'gemm_fp32_5_progress_3.csv' skip 1 using 3:5 with steps lw 2 title '512x2x512 NN'
unset multiplot
