#!/bin/bash
# Device call 28 for issue 30: (1) GPU 0: the FFMA tile family alone with launch bounds that cap registers at
# 128 for 16 warps an SM (.gpu/dlbtune_minb: __launch_bounds__(THREADS, 512 / THREADS); 51 of the 584 KIND 0
# kernels spill under it) against this build (dlbtune, the warp-tiled layout of 2990b33) on run27's three
# large shapes, in turn. Prediction: the 8x8 thread tiles at 128 registers without spills (128x64 BK 8) gain
# 3-5% from a fourth block an SM; those that spill lose. (2) The 29 gemm_training rows run27 did not reach
# (training_rest27.csv), --fp32-math ffma, this build, split over the two GPUs, fresh databases.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
rest=docs/results/gemm_fp32/training_rest27.csv
awk 'NR == 1 || NR % 2 == 0' $rest > /tmp/r0.csv
awk 'NR == 1 || NR % 2 == 1' $rest > /tmp/r1.csv
end=300
CUDA_VISIBLE_DEVICES=1 timeout -s INT -k 10 $end ./dlbtune --op gemm --prec fp32 --suite /tmp/r1.csv --db /tmp/dbr1 \
	--min-search 2 --fp32-math ffma --csv >$OUT/r1.csv 2>$OUT/r1.err &
g1=$!
mkdir -p $OUT/ab
shapes="5124x9124x2560:0:0 5124x9124x2560:1:0 2560x7133x2560:0:1"
i=0
for s in $shapes; do
	IFS=x: read m n k ta tb <<<"$s"
	[ $((i % 2)) = 0 ] && order="dlbtune .gpu/dlbtune_minb" || order=".gpu/dlbtune_minb dlbtune"
	i=$((i + 1))
	for b in $order; do
		tag=$(basename $b)
		CUDA_VISIBLE_DEVICES=0 timeout 60 ./$b --op gemm --prec fp32 --m $m --n $n --k $k --ta $ta --tb $tb \
			--only 'family:FFMA tile' --min-search 2 --power-ms 0 --db /tmp/db_$tag --csv \
			>$OUT/ab/$tag.$m.$n.$k.$ta$tb.csv 2>$OUT/ab/$tag.$m.$n.$k.$ta$tb.err
		echo "$tag $s exit $? at $(( $(date +%s) - t0 )) s"
	done
	python3 - $OUT/ab $m $n $k <<'PY'
import csv, glob, sys
for f in sorted(glob.glob("%s/*.%s.%s.%s.*.csv" % tuple(sys.argv[1:5]))):
    for r in csv.DictReader(open(f)):
        print("  %-12s %5s %5s %5s %s %-40s ours %9s us %5s%% peak, vendor %9s, paired %s" % (f.split("/")[-1].split(".")[0],
              r["m"], r["n"], r["k"], r["layout"], r["best_config"][:40], r["tuned_us"], r["pct_peak"], r["paired_vendor_us"],
              r["paired_speedup"]))
PY
done
grep -h " wrong" $OUT/ab/*.err | grep -v " 0 wrong" | head -3
CUDA_VISIBLE_DEVICES=0 timeout -s INT -k 10 $(( end - ($(date +%s) - t0) )) ./dlbtune --op gemm --prec fp32 \
	--suite /tmp/r0.csv --db /tmp/dbr0 --min-search 2 --fp32-math ffma --csv >$OUT/r0.csv 2>$OUT/r0.err
echo "== rest, even rows (GPU 0): exit $? at $(( $(date +%s) - t0 )) s"
wait $g1 # not a bare wait: that waits for tee too
echo "== rest, odd rows (GPU 1): exit $? at $(( $(date +%s) - t0 )) s"
python3 docs/results/gemm_fp32/summary.py $OUT/r0.csv $OUT/r1.csv
tar czf $OUT/ab.tgz -C $OUT ab && rm -r $OUT/ab
tar czf $OUT/errs.tgz -C $OUT r0.err r1.err && rm $OUT/*.err
echo "== total $(( $(date +%s) - t0 )) s"
