#!/bin/bash
# Device call 124 (issue 28), prepared 2026-11-30 (a seventh session), not run (no device time left to start a
# machine): proto_halo.cu (NOTES item 206), the halo kernel as a
# standalone program, on 350x80 c64 k64 3x3 n2 and n1, every variant verified on every output, timed on one set and
# rotating through 8; then, in the same call, dlbtune's KIND 2 best of each row (run122) and cuDNN in the harness.
# Build: nvcc -std=c++17 -O2 -gencode arch=compute_90a,code=sm_90a -o proto_halo_bin docs/results/conv/proto_halo.cu
# -lcuda; make; bundle. One call: mkdir -p $OUT && OUT=$OUT bash docs/results/conv/run124.sh (carry dlbtune, .gpu).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for n in 2 1; do
	timeout 90 ./proto_halo_bin 350 80 $n; echo "== proto_halo n$n: exit $?"
done
p="--op conv --prec fp16 --layout NHWC --w 350 --h 80 --c 64 --k 64 --s 3 --r 3 --pad-w 1 --pad-h 1 --power-ms 0"
timeout 120 ./dlbtune $p --n 2 --only "BM=256 BN=64 BK=64 WARPS_M=2 WARPS_N=1 STAGES=4 KIND=2" --strategy exhaustive \
	--db /tmp/db124_2 2>&1 | grep -v "^$" | tail -6
timeout 120 ./dlbtune $p --n 1 --only "BM=128 BN=64 BK=64 WARPS_M=2 WARPS_N=1 STAGES=8 KIND=2" --strategy exhaustive \
	--db /tmp/db124_1 2>&1 | grep -v "^$" | tail -6
