#!/bin/bash
# Device call 116 for convolution (issue 28), prepared 2026-11-30 (a fourth session). Not run.
# Where do the batch-1 rows with room still lose time, now that KIND 2's k-tile loop is lean (7530236)? run115's
# batch-1 rows where cuDNN is at least 1.5x the measured floor are at 1.495x (latency_bound.py); the lowest are
# KIND 3's first layers (700x161 c1 k64 5x5 stride 2: 7.69 µs, 0.98x; 224x224 c3 k64 3x3: 10.64 µs, 1.03x;
# floors 5.0 and 5.7 µs) and KIND 2's large 3x3 rows at about 2x their floors (28x28 c256 k512: 9.90 µs).
# PART=1 (default): ncu (ncu_launch.sh) on HEAD's build, about 250 s:
#   a. 28x28 c256 k512 3x3 n1, 64x64 STAGES 8 KIND 2 without a split (grid 104), and cuDNN's 64x64 kernel: as
#      run114 PART=1 on the base build, where 37.5% of our stall samples sat on the consumers' full-barrier wait
#      (NOTES items 183, 186). Prediction: the wait's share falls below 30% and ours runs about 10.5 µs under ncu
#      (14.08 on the base); if the wait still holds most samples, the stages land late: the copy engine's im2col
#      rate or the producer, not the consumers, is next.
#   b. 224x224 c3 k64 3x3 pad 1, KIND 3 BM 128 BN 64 (its winner), the first launch. c. 700x161 c1 k64 5x5 pad 1
#      stride 2, KIND 3 BM 128 BN 32. Prediction: neither is bound by DRAM (6.4 and 3.6 MB written in the 6.5 and
#      3.6 µs past the 4.1 µs launch floor: about 1 TB/s, a quarter of HBM's); the samples sit on the patch's 2-byte loads and the barrier after them
#      (long scoreboard, barrier), so the next change is wider patch loads or overlapping one tile's patch with
#      the previous tile's stores.
# PART=2 (about 250 s): next_direct_store.diff (ds) against HEAD (base) on the 14 batch-1, 2 and 4 rows that KIND
#   3 or 4 won in run115 (direct_rows116.csv), KIND 3 and 4 alone, exhaustive, each build twice (the second pass
#   --retune on the first's database, its kernels cached). ds: the direct kernels' NHWC epilogue with K even and
#   the whole filter tile in y (13 of the 14 rows; not 480x48 c1 k16, BN 32) stores two filters at a time with no check a store; in 224x224
#   c3's kernel a store goes from about 13 instructions and 3 branches to 2 (F2FP, STG), about 330 fewer
#   instructions a thread. Prediction: if the epilogue's issue is on the critical path, 224x224 c3 and 700x161
#   c1 k64 (the most output a thread) 5-15% faster; else within 2%.
#   Registers (compile -v, every KIND 3 and 4 candidate): fp16's 72 kernels no spill before or after (92-138
#   registers, a few moved by 2-5); fp32's 3xTF32 KIND 3 NHWC kernels, capped at 80 registers, spill as before except
#   BM 256 BN 32: BK 32 0 -> 8 bytes, BK 16 16 -> 8.
#   Build: git apply docs/results/conv/next_direct_store.diff && make && mkdir -p .gpu/cds && cp dlbtune .gpu/cds/
#   && git checkout templates/conv_common.cu && make. Before it lands: gpu_conv fp16 and fp32 with its build.
# Build here (./bootstrap && ./configure && make on HEAD), bundle (../shared/gpu/bundle .gpu ./dlbtune), carry
# dlbtune and .gpu; then OUT=... [PART=2] bash docs/results/conv/run116.sh and tar OUT's files (more than 8).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
if [ "${PART:-1}" = 2 ]; then
	for pass in 1 2; do
		for b in base ds; do
			bin=./dlbtune; [ $b = ds ] && bin=.gpu/cds/dlbtune
			re=; [ $pass = 2 ] && re=--retune
			timeout -s INT -k 5 150 $bin --op conv --prec fp16 --layout NHWC --suite $d/direct_rows116.csv --only "KIND=3|KIND=4" \
				--strategy exhaustive --paired 0 $re -v --db /tmp/db6_$b --csv >$OUT/${b}_$pass.csv 2>$OUT/${b}_$pass.err
			echo "== $b pass $pass: exit $?; $(grep -c ' ok, 0 wrong, 0 faults)' $OUT/${b}_$pass.err) of 14 rows without a wrong answer or fault"
		done
	done
	python3 $d/ab_direct116.py $OUT
	gzip -f $OUT/*.err
	exit 0
fi
p="--op conv --prec fp16 --layout NHWC --n 1"
TAG=k2_28 BIN=./dlbtune ROW="$p --w 28 --h 28 --c 256 --k 512 --s 3 --r 3 --pad-w 1 --pad-h 1" GRID=104 \
	CFG="BM=64 BN=64 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2" VENDOR=regex:tilesize64x64x64_warpgroupsize1x1x1 \
	bash $d/ncu_launch.sh
TAG=k3_224 BIN=./dlbtune ROW="$p --w 224 --h 224 --c 3 --k 64 --s 3 --r 3 --pad-w 1 --pad-h 1" \
	CFG="BM=128 BN=64 BK=16 WARPS_M=4 WARPS_N=1 STAGES=2 KIND=3" bash $d/ncu_launch.sh
TAG=k3_700 BIN=./dlbtune ROW="$p --w 700 --h 161 --c 1 --k 64 --s 5 --r 5 --pad-w 1 --pad-h 1 --stride-w 2 --stride-h 2" \
	CFG="BM=128 BN=32 BK=16 WARPS_M=4 WARPS_N=1 STAGES=2 KIND=3" bash $d/ncu_launch.sh
exit 0
