#!/bin/bash
# Device call 97 for convolution (issue 28), 2026-11-29 (the seventh session that day), one call, the session's
# last 243 s of device time. fp16's KIND 4 with cheaper copies (docs/NOTES.md item 146): run96's ncu had the
# kernel at 1.95 IPC with the ALU the busiest pipe; its SASS spent about 100 instructions a 16-byte patch copy
# (four runtime divisions) and 45 a filter copy (L a runtime value), more than its mma loop. Here the patch's
# chunks are stepped with carries (j / str_w by a multiply-high) and the slabs' copies use DSLAB, a constant.
# Build here, in this order (021c5dc's KIND 4 has 3e49ca4's SASS, NOTES item 147):
#   make -j2 && mkdir -p .gpu/k4slab && cp dlbtune .gpu/k4slab/
#   git apply docs/results/conv/next_k4_copies.diff && make -j2
# (.gpu/k4slab/dlbtune: run95's kernel; ./dlbtune: the cheaper copies.) Carry dlbtune and .gpu.
# (1) KIND 4 alone, exhaustive, on its 9 test rows (tests/gpu_conv.sh's section): every candidate verified.
# (2) KIND 4 alone on the six 341x79 rows (speech_341.csv), fresh databases: 3e49ca4, then this build.
# Prediction: 1.15-1.4x faster on the 341x79 rows (n32 135 -> 95-115 µs).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
tmp=/tmp/k4; mkdir -p $tmp
{ awk -F, 'NR == 1 || ($14 ~ /^NHWC/ && $3 % 8 == 0 && $6 * $7 > 1)' tests/conv_awkward.csv
  tail -n +2 tests/conv_direct_ld.csv; } >$tmp/direct4.csv
want=$(($(wc -l <$tmp/direct4.csv) - 1)); t0=$(date +%s)
timeout -s INT -k 5 60 ./dlbtune --op conv --suite $tmp/direct4.csv --prec fp16 --only 'KIND=4' --strategy exhaustive \
	--fixed-samples 1 --db $tmp/db4 --csv -v >$OUT/out4.csv 2>$OUT/err4.txt; rc=$?
echo "== (1) fp16 KIND=4 alone: exit $rc in $(( $(date +%s) - t0 )) s: $(grep -c " ok, 0 wrong, 0 faults)" $OUT/err4.txt) of $want rows verified without a wrong answer or fault, $(grep -c KIND=4 $OUT/out4.csv) won by KIND 4"
grep " ok, .* wrong, .* faults)" $OUT/err4.txt | grep -v " 0 wrong, 0 faults" | cut -c1-200
for b in old new; do
	bin=./dlbtune; [ $b = old ] && bin=.gpu/k4slab/dlbtune
	t0=$(date +%s)
	timeout -s INT -k 5 40 $bin --op conv --prec fp16 --layout NHWC --suite $d/speech_341.csv --only 'KIND=4' \
		--db /tmp/db341$b --csv >$OUT/k4_$b.csv 2>/dev/null
	echo "== (2) KIND 4 alone, $b: exit $? in $(( $(date +%s) - t0 )) s"
	cut -d, -f4,18,20 $OUT/k4_$b.csv | sed 's/ WARPS_N=1 STAGES=2 KIND=4 SPLITK=1//'
done
gzip -f $OUT/err4.txt
