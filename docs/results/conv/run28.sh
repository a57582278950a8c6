#!/bin/bash
# Device call 28 for convolution (issue 28): where the time goes, by Nsight Compute, on three conv_training rows
# in fp16 NHWC that run27 lost (a 1x1 layer on 64 channels, a 3x3 layer on 256, the 7x7 first layer on 3
# channels). Each row is tuned once (the default search) into a database; then once more under ncu with
# --budget 1 and the database's winner seeded first, so ncu sees that winner and cuDNN's algorithms.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
rows="--w 56 --h 56 --c 64 --n 16 --k 256 --s 1 --r 1
--w 28 --h 28 --c 256 --n 16 --k 512 --s 3 --r 3 --pad-w 1 --pad-h 1
--w 224 --h 224 --c 3 --n 16 --k 64 --s 7 --r 7 --pad-w 3 --pad-h 3 --stride-w 2 --stride-h 2"
i=0
echo "$rows" | while read -r row; do
	i=$((i + 1))
	s=$(date +%s)
	./dlbtune --op conv --prec fp16 --layout NHWC $row --db /tmp/db --paired 10 >$OUT/tune$i.txt 2>$OUT/tune$i.err
	echo "== row $i: tune exit $? in $(( $(date +%s) - s )) s: $row"
	tail -4 $OUT/tune$i.txt | cut -c1-250
	s=$(date +%s)
	timeout -k 5 110 ncu --target-processes all --launch-count 60 --section SpeedOfLight --section Occupancy \
		--section LaunchStats --section MemoryWorkloadAnalysis --section WarpStateStats --csv --page details \
		./dlbtune --op conv --prec fp16 --layout NHWC $row --db /tmp/db --retune --budget 1 --seeds 1 --paired 0 \
		>$OUT/ncu$i.csv 2>$OUT/ncu$i.err
	echo "== row $i: ncu exit $? in $(( $(date +%s) - s )) s"
	grep '"Duration"' $OUT/ncu$i.csv | awk -F'","' '{print $5, $NF}' | cut -c1-150 | sort | uniq -c | sort -rn | head -12
	gzip -f $OUT/ncu$i.csv
done
