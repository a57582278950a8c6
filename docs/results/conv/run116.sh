#!/bin/bash
# Device calls 116 for convolution (issue 28), prepared 2026-11-30 (a fourth session); run 2026-11-30 (a fifth
# session) on one H200, five calls on one machine, logs in logs/run116 (docs/NOTES.md items 194-196):
#   1. PART=1 then PART=3 in one call -> part1, part3   2. PART=2 -> part2
#   3, 4. OUT=... PART=0 (gpu_conv fp32), then PART=4 (fp16) BIN=.gpu/cds/dlbtune bash docs/results/conv/run114.sh
#      -> ds_gpu_conv   5. cp .gpu/cds/dlbtune ./dlbtune; OUT=$OUT/p1 PART=1 LIMIT=160 bash docs/results/conv/run115.sh
#      -> part1_batch1_ds. ds landed as cc8f19e; MC not landed.
# Where do the batch-1 rows with room still lose time, now that KIND 2's k-tile loop is lean (7530236)? run115's
# batch-1 rows where cuDNN is at least 1.5x the measured floor are at 1.495x (latency_bound.py); the lowest are
# KIND 3's first layers (700x161 c1 k64 5x5 stride 2: 7.69 µs, 0.98x; 224x224 c3 k64 3x3: 10.64 µs, 1.03x;
# floors 5.0 and 5.7 µs) and KIND 2's large 3x3 rows at about 2x their floors (28x28 c256 k512: 9.90 µs).
# Each part is one call: mkdir -p $OUT && OUT=$OUT PART=N bash docs/results/conv/run116.sh; it leaves one archive,
# $OUT/pN.tgz (log.txt and every file inside), and prints its tables. NOTES items 191-193.
# PART=1 (default, about 200 s): ncu (ncu_launch.sh) on HEAD's build:
#   a. 28x28 c256 k512 3x3 n1, 64x64 STAGES 8 KIND 2 without a split (launch 0: grid 104), and cuDNN's 64x64
#      kernel, as run114 PART=1 on the base build, where 37.5% of our stall samples sat on the consumers'
#      full-barrier wait (NOTES items 183, 186). Prediction: the wait's share falls below 30% and ours runs about
#      10.5 µs under ncu (14.08 on the base); the details' L2 throughput near its peak if item 193's reading holds.
#   b. 224x224 c3 k64 3x3 pad 1, KIND 3 BM 128 BN 64 (its winner), launch 0. c. 700x161 c1 k64 5x5 pad 1 stride 2,
#      KIND 3 BM 128 BN 32. Prediction: neither bound by DRAM (6.4 and 3.6 MB written in the 6.5 and 3.6 µs past
#      the 4.1 µs launch floor: about 1 TB/s); the samples on the patch's 2-byte loads, the barrier after them
#      and the epilogue's stores (what PART=2 changes).
# PART=2 (about 250 s): next_direct_store.diff (ds) against HEAD (base) on the 14 batch-1, 2 and 4 rows that KIND
#   3 or 4 won in run115 (direct_rows116.csv), fp16, KIND 3 and 4 alone, exhaustive, each build twice (the second
#   pass --retune on the first's database, its kernels cached); the databases (without kernels) come back, so one
#   configuration can be compared across builds. ds: the direct kernels' NHWC epilogue, where K is even and the
#   block's filter tile lies in y (all but the last filter tile where K is not a multiple of BN; every block of 13
#   of the 14 rows, not 480x48 c1 k16 with BN 32), stores two filters at a time with no check a store: in 224x224
#   c3's kernel a store goes from about 13 instructions and 3 branches to 2 (F2FP, STG). Prediction: 224x224 c3
#   and 700x161 c1 k64 (the most output a thread) 5-15% faster if the epilogue's issue is on their critical path;
#   else within 2%. fp32's KIND 3 (3xTF32) takes the same path and is not timed here: gpu_conv fp32 before it lands.
#   Build: git apply docs/results/conv/next_direct_store.diff && make && mkdir -p .gpu/cds && cp dlbtune .gpu/cds/
#   && git checkout templates/conv_common.cu && make. Before it lands: gpu_conv fp16 and fp32 on its build.
# PART=3 (about 150 s): x multicast in clusters of 2 and 4 (next_conv_mc2.diff: run112's next_conv_mc.diff
#   rebuilt on HEAD's two producer threads and lean loop) on the four KIND 2 rows below, four tiles, every split,
#   each row twice. Its MC=1 kernels compile to HEAD's SASS (64x64 STAGES 8, compared), so the one build (.gpu/cmc)
#   compares MC 1, 2 and 4. run112 found MC slower when a k-tile cost about 500 cycles whatever its bytes; now the
#   64x64 tile runs about 315 and draws about 10.7 TB/s from L2 over its 104 SMs (NOTES item 193). Prediction: if
#   L2 is the bound, 64x64 MC 2 or 4 without a split 5-15% under MC 1 on the two 3x3 rows; if each SM's intake is,
#   within 3%. Build: git apply docs/results/conv/next_conv_mc2.diff && make && mkdir -p .gpu/cmc && cp dlbtune
#   .gpu/cmc/ && git checkout docs/ARCHITECTURE.md src/ops/conv/conv.c templates/conv_fp16.cu && make.
# Build here (./bootstrap && ./configure && make on HEAD), the two builds above, bundle (../shared/gpu/bundle .gpu
# ./dlbtune), carry dlbtune and .gpu (about 22 MB).
. .gpu/env.sh
part=${PART:-1}
O=$OUT/p$part # every file of the part here, then one archive in OUT (a call returns at most 8 files)
rm -rf $O && mkdir -p $O
exec > >(tee $O/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
t0=$(date +%s)
case $part in
1)
	p="--op conv --prec fp16 --layout NHWC --n 1"
	# launch 0 of the 64x64 candidate is its grid-104 launch without a split (run114 PART=1's launch list; the split
	# order is the host's and unchanged): the details' Grid Size line says so
	OUT=$O TAG=k2_28 BIN=./dlbtune ROW="$p --w 28 --h 28 --c 256 --k 512 --s 3 --r 3 --pad-w 1 --pad-h 1" \
		CFG="BM=64 BN=64 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2" VENDOR=regex:tilesize64x64x64_warpgroupsize1x1x1 \
		bash $d/ncu_launch.sh
	OUT=$O TAG=k3_224 BIN=./dlbtune ROW="$p --w 224 --h 224 --c 3 --k 64 --s 3 --r 3 --pad-w 1 --pad-h 1" \
		CFG="BM=128 BN=64 BK=16 WARPS_M=4 WARPS_N=1 STAGES=2 KIND=3" bash $d/ncu_launch.sh
	OUT=$O TAG=k3_700 BIN=./dlbtune ROW="$p --w 700 --h 161 --c 1 --k 64 --s 5 --r 5 --pad-w 1 --pad-h 1 --stride-w 2 --stride-h 2" \
		CFG="BM=128 BN=32 BK=16 WARPS_M=4 WARPS_N=1 STAGES=2 KIND=3" bash $d/ncu_launch.sh
	;;
2)
	rm -rf /tmp/db6_*
	for pass in 1 2; do
		for b in base ds; do
			bin=./dlbtune; [ $b = ds ] && bin=.gpu/cds/dlbtune
			re=; [ $pass = 2 ] && re=--retune
			timeout -s INT -k 5 120 $bin --op conv --prec fp16 --layout NHWC --suite $d/direct_rows116.csv --only "KIND=3|KIND=4" \
				--strategy exhaustive --paired 0 $re -v --db /tmp/db6_$b --csv >$O/${b}_$pass.csv 2>$O/${b}_$pass.err
			echo "== $b pass $pass: exit $? at $(( $(date +%s) - t0 )) s; $(grep -c ' ok, 0 wrong, 0 faults)' $O/${b}_$pass.err) of 14 rows without a wrong answer or fault"
			# every candidate's time (the database without its kernels), to compare one configuration across builds
			tar czf $O/db6_${b}_$pass.tgz --exclude=kernels -C /tmp db6_$b
		done
	done
	python3 $d/ab_direct116.py $O
	;;
3)
	# MC (next_conv_mc2.diff's build, .gpu/cmc): its MC=1 kernels are HEAD's (the same SASS), so one binary compares
	rm -rf /tmp/db7_*
	cfgs="BM=64 BN=64 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2|BM=64 BN=128 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2"
	cfgs="$cfgs|BM=128 BN=64 BK=64 WARPS_M=2 WARPS_N=1 STAGES=8 KIND=2|BM=64 BN=64 BK=64 WARPS_M=1 WARPS_N=1 STAGES=4 KIND=2"
	p="--op conv --prec fp16 --layout NHWC --n 1"
	for pass in 1 2; do
		for row in "28:--w 28 --h 28 --c 256 --k 512 --s 3 --r 3 --pad-w 1 --pad-h 1" \
			"84:--w 84 --h 20 --c 256 --k 256 --s 3 --r 3 --pad-w 1 --pad-h 1" \
			"42:--w 42 --h 10 --c 512 --k 512 --s 3 --r 3 --pad-w 1 --pad-h 1" \
			"175:--w 175 --h 40 --c 128 --k 256 --s 5 --r 5 --pad-w 1 --pad-h 1 --stride-w 2 --stride-h 2"; do
			re=; [ $pass = 2 ] && re=--retune
			timeout -s INT -k 5 60 .gpu/cmc/dlbtune $p ${row#*:} --only "$cfgs" --strategy exhaustive --paired 0 $re -v \
				--db /tmp/db7_${row%%:*} >/dev/null 2>$O/${row%%:*}_$pass.err
			echo "== ${row%%:*} pass $pass: exit $? at $(( $(date +%s) - t0 )) s; $(grep -o '([0-9]* ok, [0-9]* wrong, [0-9]* faults)' $O/${row%%:*}_$pass.err)"
			.gpu/cmc/dlbtune db show --db /tmp/db7_${row%%:*} $p ${row#*:} --only "$cfgs" 2>&1 | grep " ok " |
				sed "s/^/${row%%:*} $pass /" >>$O/points.txt
		done
	done
	python3 $d/mc_table116.py $O/points.txt
	;;
esac
gzip -f $O/*.err 2>/dev/null
tar czf $OUT/p$part.tgz -C $O . && rm -rf $O
exit 0
