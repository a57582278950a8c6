#!/bin/bash
# Device call 30 for issue 30: the FFMA tile with a 64x64 warp tile (TN 16 and BM 256 in the space: 17 new
# candidates) and skewed shared-memory stages (the transposing stores of an operand contiguous along k were two-
# and four-way bank conflicts at BK 16 and 32). (1) GPU 1: every KIND 0 candidate on gpu_gemm_verify's awkward
# fp32 shapes, all layouts; then gemm_inference_server with --fp32-math ffma; then the odd rows of gemm_training.
# (2) GPU 0: the FFMA tile family alone, this build (dlbtune) against the one before (.gpu/dlbtune_old: 2990b33's
# template, the same build as run27's "after") on run27's seven shapes, in turn; then the even rows of
# gemm_training with --fp32-math ffma. Fresh result databases; the kernel caches were filled on the development
# machine (dlbtune compile) and travel in .gpu/kc.tgz (this build: kcnew, the FFMA families; the old: kcold).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
tar xzf .gpu/kc.tgz -C /tmp && for d in dbi dbt0 dbt1 db_dlbtune; do cp -r /tmp/kcnew /tmp/$d; done
mv /tmp/kcold /tmp/db_dlbtune_old
suite=src/ops/gemm/suites/gemm_training.csv
awk 'NR == 1 || NR % 2 == 0' $suite > /tmp/tr0.csv
awk 'NR == 1 || NR % 2 == 1' $suite > /tmp/tr1.csv
end=555 # seconds from t0 at which the training searches are stopped (SIGINT: the rows done are written)
(
	CUDA_VISIBLE_DEVICES=1 DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY="KIND=0" timeout -k 5 200 ./tests/gpu_gemm_verify fp32 \
		>$OUT/verify.log 2>&1
	echo "== gpu_gemm_verify fp32, KIND=0 (GPU 1): exit $? at $(( $(date +%s) - t0 )) s"
	CUDA_VISIBLE_DEVICES=1 timeout -s INT -k 10 300 ./dlbtune --op gemm --prec fp32 --suite inference_server \
		--db /tmp/dbi --min-search 2 --fp32-math ffma --csv >$OUT/inf.csv 2>$OUT/inf.err
	echo "== inference_server ffma (GPU 1): exit $? at $(( $(date +%s) - t0 )) s"
	CUDA_VISIBLE_DEVICES=1 timeout -s INT -k 10 $(( end - ($(date +%s) - t0) )) ./dlbtune --op gemm --prec fp32 \
		--suite /tmp/tr1.csv --db /tmp/dbt1 --min-search 2 --fp32-math ffma --csv >$OUT/tr1.csv 2>$OUT/tr1.err
	echo "== training odd rows ffma (GPU 1): exit $? at $(( $(date +%s) - t0 )) s"
) &
g1=$!
mkdir -p $OUT/ab
shapes="5124x9124x2560:0:0 5124x9124x2560:1:0 2560x7133x2560:0:1 7680x128x2560:0:0 4096x128x4096:1:0 2560x64x2560:0:0 35x8457x2560:0:0"
i=0
for s in $shapes; do
	IFS=x: read m n k ta tb <<<"$s"
	[ $((i % 2)) = 0 ] && order="dlbtune .gpu/dlbtune_old" || order=".gpu/dlbtune_old dlbtune"
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
	--suite /tmp/tr0.csv --db /tmp/dbt0 --min-search 2 --fp32-math ffma --csv >$OUT/tr0.csv 2>$OUT/tr0.err
echo "== training even rows ffma (GPU 0): exit $? at $(( $(date +%s) - t0 )) s"
wait $g1 # not a bare wait: that waits for tee too
grep -E "wrong|refereed|self-test|FAIL" $OUT/verify.log | tail -6 | cut -c1-220
echo "== inference_server, --fp32-math ffma"
python3 docs/results/gemm_fp32/summary.py $OUT/inf.csv
echo "== training, --fp32-math ffma, the rows done"
python3 docs/results/gemm_fp32/summary.py $OUT/tr0.csv $OUT/tr1.csv
grep -hE "^kernels:" $OUT/*.err
gzip $OUT/verify.log
tar czf $OUT/ab.tgz -C $OUT ab && rm -r $OUT/ab
tar czf $OUT/errs.tgz -C $OUT inf.err tr0.err tr1.err && rm $OUT/*.err
echo "== total $(( $(date +%s) - t0 )) s"
