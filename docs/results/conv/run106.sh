#!/bin/bash
# Device calls 106 for convolution (issue 28), prepared 2026-11-29 (the ninth session).
# Run 2026-11-29 (the tenth session), one NVIDIA H200: PART=1 passed (503 s); PART=2 reached its 580 s limit in
# gpu_conv's last section (fp32 KIND 3 alone) after fp32's and int8's 23 rows each passed (46 of 46, 0 wrong); that
# section then ran alone as an inline command (logs/run106/fp32_kind3_alone.*): 19 of 19, 0 wrong. Logs in logs/run106.
# next_conv_pdl.diff: every convolution a programmatic dependent launch on sm_90 (conv.c's launch_conv), each conv
# kernel waiting (griddepcontrol.wait) before its first global access; they already let their dependents start
# at once (conv_let_reduce_start). So a convolution's launch and block start overlap the tail of the kernel
# before it, as cuBLAS's and our GEMM's do (docs/NOTES.md item 155). run102's worst batch-1 rows are 1x1 layers
# at 5-6 µs that cuDNN runs faster in back-to-back launches than alone (7x7 c512 k512: 5.54 -> 4.36 µs; ours
# 5.11 -> 4.94).
# Build here:
#   make -j2 && mkdir -p .gpu/base && cp dlbtune .gpu/base/                   (the landed build)
#   git apply docs/results/conv/next_conv_pdl.diff && make -j2                (./dlbtune: PDL; landed with run106's logs, the file removed)
# Carry dlbtune and .gpu.
# PART=1: gpu_conv fp16 (about 450 s); PART=2: gpu_conv fp32 and int8; the diff changes every conv kernel, so it
#   lands only with all three passing.
# PART=3: A/B on 20 of run102's rows (pdl_rows.csv: its 12 worst, 4 from the middle, 4 best), each row's run102
#   winner configuration (every split variant) timed by both builds in turn: --strategy exhaustive --samples 5
#   --paired 10, fp16 NHWC.
#   ab_row.py prints both builds' paired speedups (each against cuDNN in its own process) beside the time ratio.
# A sample's first launch follows the L2 flush and cannot overlap: with 20 µs the least a sample lasts (src/app.c), a 5 µs row takes about 4
#   launches a sample, so at most about 3/4 of the overlap shows, and half on rows of 10-16 µs.
# Prediction: rows under 7 µs 0.3-0.8 µs faster (1.05-1.15x, and the paired speedup up by as much: cuDNN's
#   launches do not change), rows over 10 µs within 3%.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
case "${PART:-1}" in
1|2)
	precs=fp16; [ "$PART" = 2 ] && precs="fp32 int8"
	t0=$(date +%s)
	GPU_CONV_PRECS="$precs" DLB_REQUIRE_GPU=1 timeout -s INT -k 5 580 sh tests/gpu_conv.sh >$OUT/gpu_conv_$PART.txt 2>&1
	echo "== gpu_conv $precs: exit $? in $(( $(date +%s) - t0 )) s: $(tail -n 1 $OUT/gpu_conv_$PART.txt)"
	grep "alone" $OUT/gpu_conv_$PART.txt
	gzip -f $OUT/gpu_conv_$PART.txt
	;;
3)
	mkdir -p /tmp/ab
	i=0
	tail -n +2 $d/pdl_rows.csv | while IFS=, read w h c n k s r pw ph sw sh dw dh cfg; do
		i=$((i + 1)); p="--w $w --h $h --c $c --n $n --k $k --s $s --r $r --pad-w $pw --pad-h $ph --stride-w $sw --stride-h $sh --dil-w $dw --dil-h $dh"
		order="base pdl"; [ $((i % 2)) = 0 ] && order="pdl base" # alternating, so drift falls on both sides
		for b in $order; do
			bin=./dlbtune; [ $b = base ] && bin=.gpu/base/dlbtune
			timeout -s INT -k 5 40 $bin --op conv --prec fp16 --layout NHWC $p --only "$cfg" --strategy exhaustive \
				--samples 5 --paired 10 --db /tmp/ab/db$i$b --csv </dev/null >/tmp/ab/r$i$b.csv 2>/tmp/ab/r$i$b.err || echo "row $i $b: exit $?"
		done
		python3 $d/ab_row.py "${w}x$h c$c n$n k$k ${s}x$r" /tmp/ab/r${i}base.csv /tmp/ab/r${i}pdl.csv
	done
	grep -h " wrong" /tmp/ab/*.err | grep -v " 0 wrong, 0 faults" | head -4
	tar -C /tmp/ab -czf $OUT/ab.tgz --exclude='db*' .
	;;
esac
