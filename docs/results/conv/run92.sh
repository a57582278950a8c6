#!/bin/bash
# Device call 92 for convolution (issue 28), 2026-11-29 (the fifth session that day), one NVIDIA H200: what the
# device ran, as two command lines. Carry dlbtune, .gpu.
# PART=1 (default): gpu_conv fp16 and int8 side by side (one GPU shared; verification only, so contention changes
#   no result): int8 passed; fp16 verified its 23 rows and was cut by the 560 s limit in its KIND 3 section.
# PART=2: that KIND 3 section of gpu_conv in fp16 alone (logs/run92/direct_fp16).
. .gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/log.txt
if [ "${PART:-1}" = 1 ]; then
	for p in fp16 int8; do
		( t0=$(date +%s); GPU_CONV_PRECS=$p DLB_REQUIRE_GPU=1 timeout -s INT -k 5 560 sh tests/gpu_conv.sh >$OUT/gpu_conv_$p.txt 2>&1
		  echo "== gpu_conv $p (parallel with the other): exit $? in $(( $(date +%s) - t0 )) s: $(tail -n 1 $OUT/gpu_conv_$p.txt)" >>$OUT/log.txt ) &
	done
	wait
	cat $OUT/log.txt
else
	awk -F, 'NR == 1 || $3 * $7 * $6 <= 512' tests/conv_awkward.csv >/tmp/direct.csv
	want=$(($(wc -l </tmp/direct.csv) - 1))
	t0=$(date +%s)
	timeout -s INT -k 5 330 ./dlbtune --op conv --suite /tmp/direct.csv --prec fp16 --only 'KIND=3' --strategy exhaustive \
		--fixed-samples 1 --db /tmp/db3 --csv -v >$OUT/out3.csv 2>$OUT/err3.txt
	rc=$?
	lines=$(grep -c " ok, 0 wrong, 0 faults)" $OUT/err3.txt)
	won=$(grep -c 'KIND=3' $OUT/out3.csv)
	echo "== gpu_conv's fp16 KIND=3 section alone: exit $rc in $(( $(date +%s) - t0 )) s: $lines of $want rows verified without a wrong answer or fault, $won won by KIND 3" | tee -a $OUT/log.txt
	gzip $OUT/err3.txt
fi
