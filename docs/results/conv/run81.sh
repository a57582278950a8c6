#!/bin/bash
# Device call 81 for convolution (issue 28), prepared 2026-11-28 (not run). Of the 34 batch-1 fp16 NHWC rows where
# cuDNN is at least 1.5x the measured floor (latency_bound.py), the 3x3 layers with 256-512 channels are where we
# lose (84x20 c256 k256 0.91x, 28x28 c256 k512 0.91x at 12.2-12.5 us, about 160 TFLOP/s, where 2 GFLOP and 3 MB
# allow about 6-7 us with the 4.1 us floor). Where does the time go? ncu on each row's run69 winner (KIND 2,
# 128x128, split 4): the convolution's and conv_reduce's durations and the convolution's stalls, then the same
# configuration with splits 1, 2 and 8 (`--only` and the harness's split variants), and 64x128 / 128x64 tiles.
# Prediction: the convolution kernel takes 6-7 us of the 12 (its 9 k-tiles a split, a cold ring each), conv_reduce
# 1-2 us, the rest the launch floor; so the lever is a split's start-up (the ring's first stages), not the sums.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
m=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active,\
lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
for row in "84 20 256 256" "28 28 256 512"; do
	read w h c k <<<"$row"
	for cfg in "BM=128 BN=128 BK=64 WARPS_M=2 WARPS_N=1 STAGES=4 KIND=2" "BM=64 BN=128 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2" \
		"BM=128 BN=64 BK=64 WARPS_M=2 WARPS_N=1 STAGES=8 KIND=2"; do
		timeout -s INT -k 5 40 ./dlbtune --op conv --prec fp16 --layout NHWC --w $w --h $h --c $c --n 1 --k $k --s 3 --r 3 \
			--pad-w 1 --pad-h 1 --strategy exhaustive --only "$cfg" --db /tmp/db_$w$c$k --csv -v >/tmp/one.csv 2>/tmp/one.err
		echo "== ${w}x$h c$c k$k $cfg: exit $?"
		grep -E "SPLITK=[0-9]+ .* us" /tmp/one.err | sed 's/^ *//' | cut -c1-150 | head -8
		python3 -c "import csv; [print('   best', r['best_config'], r['tuned_us'], 'paired', r['paired_speedup']) for r in csv.DictReader(open('/tmp/one.csv'))]"
	done
	timeout -k 5 90 ncu --target-processes all -k regex:'conv_nhwc|conv_reduce' --launch-skip 4 --launch-count 4 --metrics $m \
		./dlbtune --op conv --prec fp16 --layout NHWC --w $w --h $h --c $c --n 1 --k $k --s 3 --r 3 --pad-w 1 --pad-h 1 \
		--only "BM=128 BN=128 BK=64 WARPS_M=2 WARPS_N=1 STAGES=4 KIND=2" --retune --db /tmp/ncu_$w$c$k >$OUT/ncu_${w}x$h.txt 2>&1
	echo "== ncu ${w}x$h: exit $?"
	grep -E "conv_nhwc|conv_reduce|^ +[a-z_0-9]+__" $OUT/ncu_${w}x$h.txt | awk '{print "  ", $1, $(NF-1), $NF}' | head -40
done
