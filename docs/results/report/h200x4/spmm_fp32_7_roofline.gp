# dlbtune report: the roofline. Each problem's intensity (work / the bytes of its inputs read once and
# its output written once) against the throughput of the tuned kernel and of the vendor's best,
# under the GPU's roofs: 66.9082 TFLOP/s and 4814.3 GB/s. Data: spmm_fp32_7_roofline.csv
set terminal svg size 960,440 dynamic font 'sans,11' background rgb 'white'
set output 'spmm_fp32_7_roofline.svg'
set datafile separator ','
set title "roofline: spmm fp32 on NVIDIA H200 (132sm-140GiB-1980MHz-3201MHz), driver 13.0, CUDA 13.0" noenhanced
set xlabel 'arithmetic intensity (flops per byte moved at least)'
set ylabel 'TFLOP/s'
set logscale xy 10
set format xy '%g'
set grid xtics ytics
set key top left
set xrange [0.1239:246.7]
set yrange [0.07661:133.8]
set samples 400
peak = 66.9082
bw = 4.8143 # the bandwidth in the unit per intensity (GB/s / 1000)
roof(x) = bw * x < peak ? bw * x : peak
plot roof(x) with lines lw 2 lc rgb '#555555' title sprintf('roofs: %g TFLOP/s, %g GB/s', peak, bw * 1000), 'spmm_fp32_7_roofline.csv' skip 1 using 2:3 with points pt 7 ps 0.7 lc rgb '#1f5fa8' title 'tuned', 'spmm_fp32_7_roofline.csv' skip 1 using 2:4 with points pt 6 ps 0.9 lc rgb '#c0392b' title 'vendor best'
