#!/bin/bash
# Device call 141 for convolution (issue 28), 2026-12-01 (a thirteenth session). Batch 1 is at 1.497x (run139).
# Its 1x1 rows take 3.1 µs with 2-4 k-tiles a block and 4.2-6.0 µs with 8-32 (run139): about 0.085 µs a k-tile
# of 12-16 KB on one SM, so the rows with few blocks (7x7 and 14x14 images: 8-32 blocks of 13-32 k-tiles) pay for
# their serial k-tiles. A cluster split over k spreads them across more SMs, yet the search keeps SPLITK 1 on
# 7x7 c832 k256 (8 blocks x 13 k-tiles) and takes -4 on 7x7 c2048 k512 at 5.6 µs, about 1.5 µs above what the
# k-tile rate alone predicts. What does a cluster split cost on these rows? Every KIND 2 candidate at every split
# (exhaustive) on few_blocks141.csv, then `db show` per row: the times by BN, STAGES and SPLITK.
# Prediction: split -2 and -4 cost about 1 µs more than their k-tiles predict (the reading above); if so the
# cluster's start and barriers are the lever for these rows, not the k-tile loop.
# One call: mkdir -p $OUT && OUT=$OUT bash docs/results/conv/run141.sh. Carry dlbtune and .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
t0=$(date +%s)
timeout -s INT -k 10 ${T1:-300} ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/few_blocks141.csv \
	--only 'KIND=2' --strategy exhaustive -v --db ${DB:-/tmp/db141} --csv >$OUT/exhaustive.csv 2>$OUT/exhaustive.err
echo "== exhaustive over KIND 2: exit $? at $(( $(date +%s) - t0 )) s"
grep -h "candidates, .* samples" $OUT/exhaustive.err | sed 's/.*stopped: //' | cut -c1-160
tail -n +2 $d/few_blocks141.csv | while IFS=, read -r w h c n k s r pw ph sw sh; do
	echo "== ${w}x${h} c$c k$k ${s}x$r n$n"
	./dlbtune db show --db ${DB:-/tmp/db141} --op conv --prec fp16 --layout NHWC --w $w --h $h --c $c --n $n --k $k --s $s --r $r \
		--pad-w $pw --pad-h $ph --stride-w $sw --stride-h $sh --only 'KIND=2' >$OUT/show_${w}_${c}_$k.txt 2>&1
	python3 - $OUT/show_${w}_${c}_$k.txt <<'PY'
import re, sys
t = {}
for line in open(sys.argv[1]):
    m = re.search(r"BM=(\d+) BN=(\d+) BK=64 WARPS_M=(\d) WARPS_N=1 STAGES=(\d+) KIND=2(?: MC=\d)?(?: SPLITK=(-?\d+))? ok +n=\d+ +(\d+\.\d+) us", line)
    if m:
        bm, bn, wm, st, sk, us = m.groups()
        t[(int(bm), int(bn), int(wm), int(st), int(sk or 1))] = float(us)
if not t:
    print("  no rows"); sys.exit()
b = min(t, key=t.get)
print("  best %.3f us at BM %d BN %d WARPS_M %d STAGES %d SPLITK %d; %d points" % ((t[b],) + b + (len(t),)))
# the best time at each (BM, BN, SPLITK) over STAGES and WARPS_M
bs = {}
for (bm, bn, wm, st, sk), us in t.items():
    if (bm, bn, sk) not in bs or us < bs[(bm, bn, sk)][0]:
        bs[(bm, bn, sk)] = (us, st)
for bm in sorted({k[0] for k in bs}):
    for bn in sorted({k[1] for k in bs if k[0] == bm}):
        print("  %3dx%-3d " % (bm, bn) + " ".join("%s:%.2f(st%d)" % (sk, bs[(bm, bn, sk)][0], bs[(bm, bn, sk)][1])
              for sk in sorted({k[2] for k in bs if k[:2] == (bm, bn)})))
PY
done
gzip -f $OUT/*.err $OUT/show_*.txt
echo "== done at $(( $(date +%s) - t0 )) s"
