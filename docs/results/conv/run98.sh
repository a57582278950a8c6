#!/bin/bash
# Device call 98 for convolution (issue 28), 2026-11-29 (the eighth session that day), on the build of run97
# (next_k4_copies.diff + next_k4_split.diff applied). run97's default and exhaustive searches never picked a
# split on 341x79 n1 and n2 (prediction was 7-9 and 10-12 µs). (1) why: every KIND 4 candidate and split on those
# two rows, exhaustive, and db show's trials; (2) where the cheaper copies left the n32 winner: the same ncu
# sections as run96's (NOTES item 146), now with the source table.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
p341="--w 341 --h 79 --c 32 --k 32 --s 10 --r 5 --stride-w 2 --stride-h 2"
for n in 1 2; do
	t0=$(date +%s)
	timeout -s INT -k 5 60 ./dlbtune --op conv --prec fp16 --layout NHWC $p341 --n $n --only 'KIND=4' \
		--strategy exhaustive --db /tmp/dbs$n -v >/dev/null 2>$OUT/split_n$n.err
	echo "== (1) 341x79 n$n KIND 4 exhaustive: exit $? in $(( $(date +%s) - t0 )) s"
	grep "^\[" $OUT/split_n$n.err | cut -c1-220
	./dlbtune db show --op conv --prec fp16 --layout NHWC $p341 --n $n --only 'KIND=4' --db /tmp/dbs$n \
		>$OUT/show_n$n.txt 2>&1
	grep -E "SPLITK" $OUT/show_n$n.txt | sort -t' ' -k1 | head -60
done
t0=$(date +%s)
timeout -k 5 200 ncu --target-processes all -k regex:'conv_nhwc' -c 1 --section SpeedOfLight --section WarpStateStats \
	--section SchedulerStats --section Occupancy --section MemoryWorkloadAnalysis --section LaunchStats \
	--section ComputeWorkloadAnalysis --section InstructionStats --section SourceCounters ./dlbtune --op conv \
	--prec fp16 --layout NHWC $p341 --n 32 --only 'BM=128 BN=32 BK=16 WARPS_M=4 WARPS_N=1 STAGES=2 KIND=4' \
	--db /tmp/ncu4 >$OUT/ncu_k4.txt 2>&1
echo "== (2) ncu: exit $? in $(( $(date +%s) - t0 )) s"
grep -E "Duration|Executed Ipc A|Issue Slots Busy|Registers Per|Achieved Active Warps|No Eligible|Eligible Warps|Executed Instructions  " $OUT/ncu_k4.txt | head -20
gzip -f $OUT/*.err $OUT/show_n*.txt
