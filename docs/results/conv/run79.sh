#!/bin/bash
# Device call 79 for convolution (issue 28): split-K of the wgmma kinds (fp16 KIND 1 and 2, fp32's 3xTF32)
# finished inside the kernel where the whole grid is resident at once (a cooperative launch; each tile's splits
# count themselves in, then each sums its share of the tile's rows over every split in conv_reduce's order),
# instead of a second launch (conv_reduce).
# (1) Every KIND 1 and 2 candidate on the awkward shapes (tests/conv_awkward.csv), fp16 and fp32, exhaustive,
#     each split verified: 0 wrong. (2) A/B on the 31 batch-1 fp16 NHWC rows of conv_inference_server in
#     split_rows.txt (run69's winner a wgmma kind with split-K, or a 1x1 row below 1.0x): each row's run69
#     winner configuration (`--only`, its split variants searched) with the build before (.gpu/k78/dlbtune:
#     this change's parent, plus a sparse-only diff) and after (./dlbtune), fresh databases.
# Prediction: 1-3 us off the split-K rows (the second launch and the partial sums' trip through L2 and back),
# 10-25% on the 6-15 us rows; no change on rows whose grid is over the GPU's resident blocks.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
for p in fp16 fp32; do
	timeout -s INT -k 10 ${VERIFY_S:-170} ./dlbtune --op conv --suite tests/conv_awkward.csv --prec $p --only 'KIND=1|KIND=2' \
		--strategy exhaustive --fixed-samples 1 --db /tmp/v$p --csv -v >$OUT/verify_$p.csv 2>/tmp/verify_$p.err
	echo "== verify $p KIND 1|2: exit $? at $(( $(date +%s) - t0 )) s: $(grep -c " ok, 0 wrong, 0 faults)" /tmp/verify_$p.err) rows 0 wrong, $(grep " ok, .* wrong" /tmp/verify_$p.err | grep -vc " ok, 0 wrong, 0 faults)") rows not"
	grep " ok, .* wrong, .* faults)" /tmp/verify_$p.err | sed 's/^ *//' | cut -c1-150
done
cat /tmp/verify_fp16.err /tmp/verify_fp32.err | gzip >$OUT/verify.err.gz
echo "row | before: config, us, paired | after | after/before"
grep -v '^#' docs/results/conv/split_rows.txt | while IFS=';' read -r row cfg; do
	IFS=, read -r w h c n k s r pw ph sw sh <<<"$row"
	[ $(( $(date +%s) - t0 )) -gt ${STOP_S:-540} ] && { echo "(stopped at $row: the call's time)"; break; }
	for b in before after; do
		bin=./dlbtune; [ $b = before ] && bin=.gpu/k78/dlbtune
		timeout -s INT -k 5 40 $bin --op conv --prec fp16 --layout NHWC --w $w --h $h --c $c --n $n --k $k --s $s --r $r \
			--pad-w $pw --pad-h $ph --stride-w $sw --stride-h $sh --only "$cfg" --samples 5 --paired 10 \
			--db /tmp/ab_$b --csv 2>>/tmp/ab_$b.err >/tmp/one_$b.csv
		cat /tmp/one_$b.csv >>$OUT/ab_$b.csv
	done
	python3 - "$row" /tmp/one_before.csv /tmp/one_after.csv <<'PY'
import csv, sys
def last(f):
    rows = list(csv.reader(open(f)))
    head = rows[0] if rows else []
    body = [r for r in rows if r != head]
    return dict(zip(head, body[-1])) if body else None
b, a = last(sys.argv[2]), last(sys.argv[3])
if b and a:
    sp = lambda r: [t for t in r["best_config"].split() if t.startswith("SPLITK")][0]
    print("%-34s | %-9s %8s %6s | %-9s %8s %6s | %.3f" % (sys.argv[1], sp(b), b["tuned_us"], b["paired_speedup"],
          sp(a), a["tuned_us"], a["paired_speedup"], float(a["tuned_us"]) / float(b["tuned_us"])))
PY
done
echo "== A/B done at $(( $(date +%s) - t0 )) s"
cat /tmp/ab_before.err /tmp/ab_after.err | gzip >$OUT/ab.err.gz
