#!/bin/bash
# Device call 96 for convolution (issue 28), 2026-11-29 (the seventh session that day), one call. fp16's KIND 4
# software-pipelined (the next k-step's ldmatrix fragments read while this step's mma run, two register sets, the
# slot offset two steps ahead) and WARPS_M 8 for KIND 4 (a warp a 16-pixel strip: 8 warps a block; docs/NOTES.md
# item 146). run95's kernel ran 152 TFLOP/s on 341x79 c32 n32: 4 warps a block, two blocks an SM, every ldmatrix
# waiting on its offset's shared read and every mma on its ldmatrix (SASS).
# Build here: .gpu/k4slab/dlbtune is 3e49ca4's (run95's kernel), ./dlbtune this tree's. Carry dlbtune and .gpu.
# (1) KIND 4 alone, exhaustive, on its 9 test rows (tests/gpu_conv.sh's section): every candidate verified.
# (2) KIND 4 alone on the six 341x79 rows (speech_341.csv), fresh databases: 3e49ca4; this build with WARPS_M 4
#     only (the pipelining alone); this build whole (+ WARPS_M 8).
# (3) conv_training's 16 speech rows, fp16 NHWC, default search (run95: 1.202x paired).
# (4) as much of direct_ld_rows.csv (the 44 inference rows KIND 4 applies to) as the call's time leaves.
# Prediction: the pipelining 1.2-1.5x on the 341x79 rows (n32 135 -> 90-110 µs), WARPS_M 8 a little more where
# blocks are few; the speech rows 1.202x -> 1.25-1.3x.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
T0=$(date +%s)
tmp=/tmp/k4; mkdir -p $tmp
{ awk -F, 'NR == 1 || ($14 ~ /^NHWC/ && $3 % 8 == 0 && $6 * $7 > 1)' tests/conv_awkward.csv
  tail -n +2 tests/conv_direct_ld.csv; } >$tmp/direct4.csv
want=$(($(wc -l <$tmp/direct4.csv) - 1)); t0=$(date +%s)
timeout -s INT -k 5 120 ./dlbtune --op conv --suite $tmp/direct4.csv --prec fp16 --only 'KIND=4' --strategy exhaustive \
	--fixed-samples 1 --db $tmp/db4 --csv -v >$OUT/out4.csv 2>$OUT/err4.txt; rc=$?
echo "== (1) fp16 KIND=4 alone: exit $rc in $(( $(date +%s) - t0 )) s: $(grep -c " ok, 0 wrong, 0 faults)" $OUT/err4.txt) of $want rows verified without a wrong answer or fault, $(grep -c KIND=4 $OUT/out4.csv) won by KIND 4"
grep " ok, .* wrong, .* faults)" $OUT/err4.txt | grep -v " 0 wrong, 0 faults" | cut -c1-200
for b in old wm4 new; do
	bin=./dlbtune only='KIND=4'
	[ $b = old ] && bin=.gpu/k4slab/dlbtune
	[ $b = wm4 ] && only='WARPS_M=4 WARPS_N=1 STAGES=2 KIND=4'
	t0=$(date +%s)
	timeout -s INT -k 10 90 $bin --op conv --prec fp16 --layout NHWC --suite $d/speech_341.csv --only "$only" \
		--db /tmp/db341$b --csv >$OUT/k4_$b.csv 2>/dev/null
	echo "== (2) KIND 4 alone, $b: exit $? in $(( $(date +%s) - t0 )) s"
done
t0=$(date +%s)
timeout -s INT -k 10 170 ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/speech_training.csv --db /tmp/dbH -v \
	--csv >$OUT/speech_fp16.csv 2>$OUT/speech_fp16.err
echo "== (3) conv_training speech rows fp16 NHWC: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/speech_fp16.err) rows"
left=$(( 545 - ($(date +%s) - T0) ))
if [ $left -gt 30 ]; then
	t0=$(date +%s)
	timeout -s INT -k 5 $left ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/direct_ld_rows.csv --db /tmp/dbI -v \
		--csv >$OUT/inference_ld.csv 2>$OUT/inference_ld.err
	echo "== (4) conv_inference_server KIND 4 rows fp16 NHWC: exit $? in $(( $(date +%s) - t0 )) s (limit $left); $(grep -c "^\[" $OUT/inference_ld.err) rows"
fi
grep -hE "wrong|fault" $OUT/*.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
grep -c "KIND=4" $OUT/speech_fp16.csv $OUT/inference_ld.csv 2>/dev/null
gzip -f $OUT/*.err $OUT/err4.txt
# The session's last call (its logs: logs/run96/ncu_k4.txt) profiled 3e49ca4's winner on 341x79 n32, on a build of
# 3e49ca4 (this script's pipelined build was not kept):
#   ncu --target-processes all -k regex:'conv_nhwc' -c 1 --section SpeedOfLight --section WarpStateStats \
#     --section SchedulerStats --section Occupancy --section MemoryWorkloadAnalysis --section LaunchStats \
#     --section ComputeWorkloadAnalysis --section SourceCounters ./dlbtune --op conv --prec fp16 --layout NHWC \
#     --w 341 --h 79 --c 32 --n 32 --k 32 --s 10 --r 5 --stride-w 2 --stride-h 2 \
#     --only 'BM=128 BN=32 BK=16 WARPS_M=4 WARPS_N=1 STAGES=2 KIND=4' --db /tmp/ncu4
