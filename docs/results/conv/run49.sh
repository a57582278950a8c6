#!/bin/bash
# Device call 49 for convolution (issue 28): split-K's partial sums added by conv_reduce on every SM (a
# programmatic dependent launch) instead of by the last block of each tile alone (run48: split-K made the
# 128x128 tile slower, 37 -> 42 -> 60 -> 206 us at splits 1, 2, 8, 32). Run48's three rows with four wgmma
# tiles, every split variant shown (-vv), then gpu_conv fp32 (every candidate on the awkward shapes).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rows="--w 7 --h 7 --c 512 --n 8 --k 512 --s 3 --r 3 --pad-w 1 --pad-h 1
--w 7 --h 7 --c 832 --n 1 --k 256 --s 1 --r 1
--w 42 --h 10 --c 512 --n 1 --k 512 --s 3 --r 3 --pad-w 1 --pad-h 1"
cfg="BM=64 BN=64 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2|BM=128 BN=128 BK=64 WARPS_M=2 WARPS_N=1 STAGES=4 KIND=2"
cfg="$cfg|BM=128 BN=64 BK=64 WARPS_M=2 WARPS_N=1 STAGES=8 KIND=2|BM=64 BN=128 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2"
i=0
echo "$rows" | while read -r row; do
	i=$((i + 1))
	s=$(date +%s)
	./dlbtune --op conv --prec fp16 --layout NHWC $row --db /tmp/db --only "$cfg" --strategy exhaustive --paired 10 -vv >$OUT/tune$i.txt 2>$OUT/tune$i.err
	echo "== row $i: exit $? in $(( $(date +%s) - s )) s: $row"
	grep -E "SPLITK=[0-9]+ .*us" $OUT/tune$i.err | sed 's/^ *//' | cut -c1-160
	grep -E "side by side with|ok, .* wrong" $OUT/tune$i.err | sed 's/^ *//' | cut -c1-200
done
s=$(date +%s)
GPU_CONV_PRECS=fp32 DLB_REQUIRE_GPU=1 timeout -k 5 300 ./tests/gpu_conv.sh >$OUT/gconv_fp32.log 2>&1
echo "== gpu_conv fp32 (300 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed" $OUT/gconv_fp32.log | cut -c1-160 | tail -5
