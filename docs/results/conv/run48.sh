#!/bin/bash
# Device call 48 for convolution (issue 28): what sets the pace of the few-tile fp16 layers (NOTES item 58).
# Three rows that lose by 0.62-0.71x, each with our run45 winner's tile (64x64, 8 stages) and a 128x128 one
# (every split-K variant), then cuDNN's algorithms, all under ncu with a few metrics a kernel: duration, grid,
# L2 and DRAM bytes and throughputs, so cuDNN's grid and split and our traffic can be compared.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
which ncu nsys
m=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic
m=$m,lts__t_bytes.sum,dram__bytes_read.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed
m=$m,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
m=$m,sm__inst_executed_pipe_tensor_op_gmma.sum,l1tex__m_xbar2l1tex_read_bytes.sum
rows="--w 7 --h 7 --c 512 --n 8 --k 512 --s 3 --r 3 --pad-w 1 --pad-h 1
--w 7 --h 7 --c 832 --n 1 --k 256 --s 1 --r 1
--w 42 --h 10 --c 512 --n 1 --k 512 --s 3 --r 3 --pad-w 1 --pad-h 1"
cfg="BM=64 BN=64 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2|BM=128 BN=128 BK=64 WARPS_M=2 WARPS_N=1 STAGES=4 KIND=2"
i=0
echo "$rows" | while read -r row; do
	i=$((i + 1))
	s=$(date +%s)
	./dlbtune --op conv --prec fp16 --layout NHWC $row --db /tmp/db$i --only "$cfg" --paired 10 -v >$OUT/tune$i.txt 2>$OUT/tune$i.err
	echo "== row $i: exit $? in $(( $(date +%s) - s )) s: $row"
	grep -E "^ +[0-9]" $OUT/tune$i.txt | cut -c1-250 | tail -2
	s=$(date +%s)
	timeout -k 5 170 ncu --target-processes all -k 'regex:conv_nhwc|xmma|nvjet|cutlass|cudnn|split|reduc|gemm|fprop|kernel|Kernel' \
		-c 400 --metrics $m --csv \
		./dlbtune --op conv --prec fp16 --layout NHWC $row --db /tmp/db$i --only "$cfg" --retune --paired 0 \
		--samples 3 --fixed-samples 3 >$OUT/ncu$i.csv 2>$OUT/ncu$i.err
	echo "== row $i: ncu exit $? in $(( $(date +%s) - s )) s"
	tail -3 $OUT/ncu$i.err | cut -c1-200
done
cd $OUT && gzip -f ncu*.csv
