# dlbtune report: the roofline. Each problem's intensity (work / the bytes of its inputs read once and
# its output written once) against the throughput of the tuned kernel and of the vendor's best,
# under the GPU's roofs: 1070.53 TFLOP/s and 4814.3 GB/s. Data: gemm_fp16_4_roofline.csv
set terminal svg size 960,440 dynamic font 'sans,11' background rgb 'white'
set output 'gemm_fp16_4_roofline.svg'
set datafile separator ','
set title "roofline: gemm fp16 on NVIDIA H200 (132sm-140GiB-1980MHz-3201MHz), driver 13.0, CUDA 13.0" noenhanced
set xlabel 'arithmetic intensity (flops per byte moved at least)'
set ylabel 'TFLOP/s'
set logscale xy 10
set format xy '%g'
set grid xtics ytics
set key top left
set xrange [0.4981:3124]
set yrange [0.0494:2141]
set samples 400
peak = 1070.53
bw = 4.8143 # the bandwidth in the unit per intensity (GB/s / 1000)
roof(x) = bw * x < peak ? bw * x : peak
plot roof(x) with lines lw 2 lc rgb '#555555' title sprintf('roofs: %g TFLOP/s, %g GB/s', peak, bw * 1000), 'gemm_fp16_4_roofline.csv' skip 1 using 2:3 with points pt 7 ps 0.7 lc rgb '#1f5fa8' title 'tuned', 'gemm_fp16_4_roofline.csv' skip 1 using 2:4 with points pt 6 ps 0.9 lc rgb '#c0392b' title 'vendor best'
