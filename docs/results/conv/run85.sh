#!/bin/bash
# Device call 85 for convolution (issue 28), 2026-11-29 (the third session that day). Two review follow-ups of the
# cluster split-K (659de03): conv_cluster_finish's NCHW stores, which took a tile's filters across a warp (32
# stores PQ elements apart), now take its pixels across the warp (four runs of a y plane); and the launch asks
# cudaOccupancyMaxActiveClusters once for each kernel whether the cluster fits, failing the trial with the reason
# where it does not. Builds: before = .gpu/old/dlbtune (5dd2f02), after = ./dlbtune. Carry .gpu/env.sh, .gpu/lib,
# .gpu/old, dlbtune.
# (1) KIND 1 and 2 of the after build verified on the awkward shapes (NCHW and NHWC), every candidate and split,
#     fp32 then fp16 (VERIFY_PRECS): 0 wrong. (2) ROWS (default split_rows_fp32.txt: ten conv_training fp32 NCHW
#     rows whose run20 winner was a 3xTF32 wgmma tile with split-K 2-8, before the cluster variants existed): each
#     row's configuration with every split variant timed, before and after.
# Prediction: (1) 0 wrong. (2) where a cluster split wins, after/before 0.90-0.97 (a 128x128 tile's finish writes
#     16384 values, 512 warp stores that touched 32 sectors each now touch 4-8); rows won by a plain split, 1.00.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
for p in ${VERIFY_PRECS-fp32 fp16}; do
	timeout -s INT -k 10 ${VERIFY_S:-170} ./dlbtune --op conv --suite tests/conv_awkward.csv --prec $p --only 'KIND=1|KIND=2' \
		--strategy exhaustive --fixed-samples 1 --db /tmp/v$p --csv -v >/tmp/verify_$p.csv 2>/tmp/verify_$p.err
	echo "== verify $p KIND 1|2: exit $? at $(( $(date +%s) - t0 )) s: $(grep -c " ok, 0 wrong, 0 faults)" /tmp/verify_$p.err) rows 0 wrong, $(grep " ok, .* wrong" /tmp/verify_$p.err | grep -vc " ok, 0 wrong, 0 faults)") rows not; $(grep -c 'SPLITK=-' /tmp/verify_$p.err) lines with a cluster split"
done
[ -n "${VERIFY_PRECS-x}" ] && cat /tmp/verify_*.err | gzip >$OUT/verify.err.gz
rows=${1:-docs/results/conv/split_rows_fp32.txt}
echo "row | before: split, us | after: split, us | after/before"
grep -v '^#' $rows | while IFS=';' read -r row cfg; do
	[ $(( $(date +%s) - t0 )) -gt ${STOP_S:-100000} ] && { echo "== STOP_S reached: rows left out"; break; }
	IFS=, read -r w h c n k s r pw ph sw sh <<<"$row"
	for b in before after; do
		bin=./dlbtune; [ $b = before ] && bin=.gpu/old/dlbtune
		timeout -s INT -k 5 60 $bin --op conv --prec ${PREC:-fp32} --layout ${LAYOUT:-NCHW} \
			--w $w --h $h --c $c --n $n --k $k --s $s --r $r --pad-w $pw --pad-h $ph --stride-w $sw --stride-h $sh \
			--only "$cfg" --strategy exhaustive --samples 5 --paired 10 --db /tmp/ab_$b --csv -v 2>>/tmp/ab_$b.err >/tmp/one_$b.csv
		cat /tmp/one_$b.csv >>$OUT/ab_$b.csv
	done
	python3 docs/results/conv/ab_row.py "$row" /tmp/one_before.csv /tmp/one_after.csv
done
echo "== A/B done at $(( $(date +%s) - t0 )) s"
cat /tmp/ab_*.err | gzip >$OUT/ab.err.gz
