#!/bin/bash
# Device call 29 (run again as run30 with the kernel filters fixed) for convolution (issue 28): run28 again, right this time. run28's ncu saw a random candidate
# (--seeds did not put the stored winner first under --budget 1) and mostly the harness's hold kernel. Here the
# new `--only` runs one configuration alone: each row's run27/run28 winner under ncu (--set full, our kernel
# and then cuDNN's), three conv_training rows in fp16 NHWC that run27 lost.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rows="--w 56 --h 56 --c 64 --n 16 --k 256 --s 1 --r 1;BM=64 BN=128 BK=64 WARPS_M=1 WARPS_N=1 STAGES=4 KIND=2
--w 28 --h 28 --c 256 --n 16 --k 512 --s 3 --r 3 --pad-w 1 --pad-h 1;BM=128 BN=128 BK=64 WARPS_M=2 WARPS_N=1 STAGES=4 KIND=2
--w 224 --h 224 --c 3 --n 16 --k 64 --s 7 --r 7 --pad-w 3 --pad-h 3 --stride-w 2 --stride-h 2;BM=64 BN=64 BK=16 WARPS_M=2 WARPS_N=2 STAGES=2 KIND=0"
i=0
echo "$rows" | while IFS=';' read -r row cfg; do
	i=$((i + 1))
	s=$(date +%s)
	./dlbtune --op conv --prec fp16 --layout NHWC $row --db /tmp/db --only "$cfg" --paired 10 -v >$OUT/tune$i.txt 2>$OUT/tune$i.err
	echo "== row $i: exit $? in $(( $(date +%s) - s )) s: $row: $cfg"
	grep -E "restricted|of the .* configurations|^ +[0-9]" $OUT/tune$i.txt $OUT/tune$i.err | cut -c1-250 | tail -4
	for who in ours vendor; do
		s=$(date +%s)
		if [ $who = ours ]; then k='regex:^conv_nhwc$'; c=2; else k='regex:^(?!conv_nhwc|conv_ref|hold_stream|fill_|compare_|l2_|flush|to_nhwc|cvt|f32_to|s8_to)'; c=4; fi
		timeout -k 5 100 ncu --target-processes all -k "$k" -c $c --set full --csv --page details \
			./dlbtune --op conv --prec fp16 --layout NHWC $row --db /tmp/db --only "$cfg" --paired 0 \
			>$OUT/ncu${i}_$who.csv 2>$OUT/ncu${i}_$who.err
		echo "== row $i $who: ncu exit $? in $(( $(date +%s) - s )) s"
		grep '"Duration"' $OUT/ncu${i}_$who.csv | awk -F'","' '{print $5, $(NF)}' | cut -c1-120 | head -6
		gzip -f $OUT/ncu${i}_$who.csv
	done
done
