#!/bin/bash
# Device call 83 for convolution (issue 28), 2026-11-29 (run83: split_rows4.txt; run83b: 13 rows of
# split_rows_rest.txt; the verification half not yet run). The wgmma kernels' split-K as a
# thread-block cluster (SPLITK = -2, -4, -8: the splits of a tile are one cluster (1, 1, S); each stores its
# partial tile to its own ring, and split z sums rows z*BM/S .. of every split's tile over distributed shared
# memory in split order and writes y: no workspace, no conv_reduce; templates/conv_fp16.cu conv_cluster_finish).
# run82 measured where split 4's time goes on the batch-1 3x3 rows: 6.9 MB of partials written and read back,
# conv_reduce alone half the convolution's time. Builds: before = .gpu/cb/dlbtune (d58bc92, no cluster variants),
# after = ./dlbtune built with cluster_split.diff applied (git apply docs/results/conv/cluster_split.diff).
# Carry .gpu/env.sh, .gpu/lib, .gpu/cb, dlbtune.
# Usage: [VERIFY_PRECS="fp16 fp32"] run83.sh [ROWS] (default docs/results/conv/split_rows10.txt; split_rows.txt for all
# 31; split_rows4.txt four of them; VERIFY_PRECS= skips (1): each variant timed is verified first anyway).
# (1) KIND 1 and 2 verified on the awkward shapes, fp16 and fp32, every candidate and split (cluster ones
#     included): 0 wrong, and how many cluster trials ran. (2) Each row's run69 winner configuration, every split
#     variant timed (exhaustive), before and after; the winner's SPLITK and time.
# Prediction: the cluster variant wins every row whose winner had split 2-8, 8-15% faster (84x20 c256 k256:
# 12.4 -> about 10.8 us); rows without split-K unchanged.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
for p in ${VERIFY_PRECS-fp16 fp32}; do
	timeout -s INT -k 10 ${VERIFY_S:-170} ./dlbtune --op conv --suite tests/conv_awkward.csv --prec $p --only 'KIND=1|KIND=2' \
		--strategy exhaustive --fixed-samples 1 --db /tmp/v$p --csv -v >/tmp/verify_$p.csv 2>/tmp/verify_$p.err
	echo "== verify $p KIND 1|2: exit $? at $(( $(date +%s) - t0 )) s: $(grep -c " ok, 0 wrong, 0 faults)" /tmp/verify_$p.err) rows 0 wrong, $(grep " ok, .* wrong" /tmp/verify_$p.err | grep -vc " ok, 0 wrong, 0 faults)") rows not; $(grep -c 'SPLITK=-' /tmp/verify_$p.err) lines with a cluster split"
done
[ -n "${VERIFY_PRECS-x}" ] && cat /tmp/verify_*.err | gzip >$OUT/verify.err.gz
rows=${1:-docs/results/conv/split_rows10.txt}
echo "row | before: split, us | after: split, us | after/before"
grep -v '^#' $rows | while IFS=';' read -r row cfg; do
	[ $(( $(date +%s) - t0 )) -gt ${STOP_S:-100000} ] && { echo "== STOP_S reached: rows left out"; break; }
	IFS=, read -r w h c n k s r pw ph sw sh <<<"$row"
	for b in before after; do
		bin=./dlbtune; [ $b = before ] && bin=.gpu/cb/dlbtune
		timeout -s INT -k 5 40 $bin --op conv --prec fp16 --layout NHWC \
			--w $w --h $h --c $c --n $n --k $k --s $s --r $r --pad-w $pw --pad-h $ph --stride-w $sw --stride-h $sh \
			--only "$cfg" --strategy exhaustive --samples 5 --paired 10 --db /tmp/ab_$b --csv -v 2>>/tmp/ab_$b.err >/tmp/one_$b.csv
		cat /tmp/one_$b.csv >>$OUT/ab_$b.csv
	done
	python3 docs/results/conv/ab_row.py "$row" /tmp/one_before.csv /tmp/one_after.csv
done
echo "== A/B done at $(( $(date +%s) - t0 )) s"
cat /tmp/ab_*.err | gzip >$OUT/ab.err.gz
