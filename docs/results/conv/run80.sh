#!/bin/bash
# Device call 80 for convolution (issue 28). run79: split-K finished inside the wgmma kernels (cooperative launch)
# verified, but 4-19% slower than conv_reduce's second launch on 22 of 22 split-K rows. Two suspects: each thread of
# the finish had only 4 loads in flight (one tile slice, 64 KB, in several L2 round trips), and the cooperative
# launch's own cost. This build keeps 16 loads in flight a thread (8 under the 128-register bound); the
# experiment binary .gpu/nocoop (the same, plus DLB_NOCOOP_EXPERIMENT: a plain launch of the same grid, which
# fits on the GPU, without the guarantee) separates the launch's cost. Ten split-K rows of split_rows10.txt:
# before (.gpu/k78/dlbtune), after (./dlbtune), after without the cooperative attribute. Then the verification
# of run79 again (KIND 1 and 2, fp16 and fp32, every candidate and split on the awkward shapes).
# Prediction: the loads in flight recover half the loss; the cooperative attribute costs under 0.3 us.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
echo "row | before: split, us | after (cooperative) | after (plain launch) | after/before, plain/before"
grep -v '^#' docs/results/conv/split_rows10.txt | while IFS=';' read -r row cfg; do
	IFS=, read -r w h c n k s r pw ph sw sh <<<"$row"
	for b in before after plain; do
		bin=./dlbtune; [ $b = before ] && bin=.gpu/k78/dlbtune; [ $b = plain ] && bin=.gpu/nocoop/dlbtune
		env $([ $b = plain ] && echo DLB_NOCOOP_EXPERIMENT=1) timeout -s INT -k 5 40 $bin --op conv --prec fp16 --layout NHWC \
			--w $w --h $h --c $c --n $n --k $k --s $s --r $r --pad-w $pw --pad-h $ph --stride-w $sw --stride-h $sh \
			--only "$cfg" --samples 5 --paired 10 --db /tmp/ab_$b --csv 2>>/tmp/ab_$b.err >/tmp/one_$b.csv
		cat /tmp/one_$b.csv >>$OUT/ab_$b.csv
	done
	python3 - "$row" /tmp/one_before.csv /tmp/one_after.csv /tmp/one_plain.csv <<'PY'
import csv, sys
def last(f):
    rows = list(csv.reader(open(f)))
    head = rows[0] if rows else []
    body = [r for r in rows if r != head]
    return dict(zip(head, body[-1])) if body else None
b, a, p = last(sys.argv[2]), last(sys.argv[3]), last(sys.argv[4])
if b and a and p:
    sp = lambda r: [t for t in r["best_config"].split() if t.startswith("SPLITK")][0]
    print("%-34s | %-9s %8s | %-9s %8s | %-9s %8s | %.3f %.3f" % (sys.argv[1], sp(b), b["tuned_us"], sp(a), a["tuned_us"],
          sp(p), p["tuned_us"], float(a["tuned_us"]) / float(b["tuned_us"]), float(p["tuned_us"]) / float(b["tuned_us"])))
PY
done
echo "== A/B done at $(( $(date +%s) - t0 )) s"
cat /tmp/ab_*.err | gzip >$OUT/ab.err.gz
for p in fp16 fp32; do
	timeout -s INT -k 10 ${VERIFY_S:-150} ./dlbtune --op conv --suite tests/conv_awkward.csv --prec $p --only 'KIND=1|KIND=2' \
		--strategy exhaustive --fixed-samples 1 --db /tmp/v$p --csv -v >/tmp/verify_$p.csv 2>/tmp/verify_$p.err
	echo "== verify $p KIND 1|2: exit $? at $(( $(date +%s) - t0 )) s: $(grep -c " ok, 0 wrong, 0 faults)" /tmp/verify_$p.err) rows 0 wrong, $(grep " ok, .* wrong" /tmp/verify_$p.err | grep -vc " ok, 0 wrong, 0 faults)") rows not"
done
cat /tmp/verify_fp16.err /tmp/verify_fp32.err | gzip >$OUT/verify.err.gz
