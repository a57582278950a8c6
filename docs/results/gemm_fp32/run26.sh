#!/bin/bash
# Device call 26 for issue 30: the FFMA tile (KIND 0) with a warp-tiled thread layout. Each warp's lanes form
# LM x LN (8 x 4 where the block allows) and a thread's TM x TN elements are chunks of 4 rows LM*4 apart and of
# 4 (or 2) columns LN*4 apart, so a warp reads its A and B fragments in about a quarter of the shared-memory
# wavefronts of the old layout (a thread's TM consecutive rows, 32 threads of a warp down M). Prediction: large
# shapes from 57-64% of the FFMA peak to about cuBLAS's 72-74% (paired 0.80 -> 0.95x); mid shapes gain less.
# GPU 1: every KIND 0 candidate on gpu_gemm_verify's awkward fp32 shapes, all layouts and split-K variants.
# GPU 0, at the same time: the FFMA tile family alone (--only 'family:FFMA tile') per shape with this build
# (dlbtune) and the one before (.gpu/dlbtune_old, HEAD before the change), in turn, order alternating by shape.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
(CUDA_VISIBLE_DEVICES=1 DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY="KIND=0" timeout -k 5 400 ./tests/gpu_gemm_verify fp32 \
	>$OUT/verify.log 2>&1; echo "== gpu_gemm_verify fp32, KIND=0 (GPU 1): exit $? in $(( $(date +%s) - t0 )) s") &
mkdir -p $OUT/ab
shapes="5124x9124x2560:0:0 5124x9124x2560:1:0 2560x7133x2560:0:1 7680x128x2560:0:0 4096x128x4096:1:0 2560x64x2560:0:0 1760x128x1760:0:0 35x8457x2560:0:0 2048x32x2048:0:0 1024x700x512:0:0"
i=0
for s in $shapes; do
	IFS=x: read m n k ta tb <<<"$s"
	[ $((i % 2)) = 0 ] && order="dlbtune .gpu/dlbtune_old" || order=".gpu/dlbtune_old dlbtune"
	i=$((i + 1))
	for b in $order; do
		tag=$(basename $b)
		CUDA_VISIBLE_DEVICES=0 timeout 100 ./$b --op gemm --prec fp32 --m $m --n $n --k $k --ta $ta --tb $tb \
			--only 'family:FFMA tile' --min-search 2 --power-ms 0 --db /tmp/db_$tag --csv \
			>$OUT/ab/$tag.$m.$n.$k.$ta$tb.csv 2>$OUT/ab/$tag.$m.$n.$k.$ta$tb.err
		echo "$tag $s exit $? at $(( $(date +%s) - t0 )) s; $(grep -c ' wrong' $OUT/ab/$tag.$m.$n.$k.$ta$tb.err) lines with ' wrong'"
	done
done
wait
grep -E "wrong|refereed|self-test|FAIL" $OUT/verify.log | tail -6 | cut -c1-220
python3 - $OUT/ab <<'PY'
import csv, glob, os, sys
rows = {}
for f in sorted(glob.glob(sys.argv[1] + "/*.csv")):
    for r in csv.DictReader(open(f)):
        rows[(r["m"], r["n"], r["k"], r["layout"], os.path.basename(f).split(".")[0])] = r
for key in sorted(rows, key=lambda k: (-2 * float(k[0]) * float(k[1]) * float(k[2]), k[3], k[4])):
    r = rows[key]
    print("%-12s %5s %5s %5s %s %-40s ours %9s us %5s%% peak, vendor %9s, paired %s" % (key[4], *key[:4],
          r["best_config"][:40], r["tuned_us"], r["pct_peak"], r["paired_vendor_us"], r["paired_speedup"]))
PY
gzip $OUT/verify.log
tar czf $OUT/ab.tgz -C $OUT ab && rm -r $OUT/ab
echo "== total $(( $(date +%s) - t0 )) s"
