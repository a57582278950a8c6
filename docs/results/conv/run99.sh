#!/bin/bash
# Device call 99 for convolution (issue 28), 2026-11-29 (the eighth session that day). run97 measured KIND 4's
# winner a little slower with the split-K diff than without it on some rows (n32 108.7 -> 111.7 µs, n4 19.4 ->
# 21.0), in separate default searches. Here one configuration, BM 128 BN 32 BK 16 WARPS_M 4 (the winner on
# n4-n32), alone, on three rows, with the two builds alternating three times: .gpu/k4copies (cheaper copies)
# and ./dlbtune (copies + split-K; its launch variants include splits, its CSV says which won).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=/tmp/rows.csv
printf 'w,h,c,n,k,s,r,pad_w,pad_h,stride_w,stride_h\n341,79,32,4,32,10,5,0,0,2,2\n341,79,32,16,32,10,5,0,0,2,2\n341,79,32,32,32,10,5,0,0,2,2\n' >$s
for rep in 1 2 3; do
	for b in copies split; do
		bin=./dlbtune; [ $b = copies ] && bin=.gpu/k4copies/dlbtune
		timeout -s INT -k 5 60 $bin --op conv --prec fp16 --layout NHWC --suite $s --power-ms 0 \
			--only 'BM=128 BN=32 BK=16 WARPS_M=4 WARPS_N=1 STAGES=2 KIND=4' --db /tmp/ab$b$rep --csv \
			>$OUT/ab_${b}_$rep.csv 2>/dev/null
		echo "== rep $rep $b: exit $?"
		python3 -c "
import csv
for r in csv.DictReader(open('$OUT/ab_${b}_$rep.csv')):
    print('  n%-3s %8s us [%s, %s]  paired %s  %s' % (r['n'], r['tuned_us'], r['tuned_ci_lo'], r['tuned_ci_hi'],
          r['paired_tuned_us'], r['best_config'].split()[-1]))"
	done
done
# Then, on the same machine, an inline command (logs/run99/out4_copies.csv, err4_copies.txt.gz): run97 PART=1's
# first step with .gpu/k4copies/dlbtune, i.e. KIND 4 alone, exhaustive, --fixed-samples 1, on the NHWC rows of
# tests/conv_awkward.csv with C % 8 == 0 and more than one tap plus tests/conv_direct_ld.csv.
