#!/bin/bash
# Device call 33 for issue 30: the skinny family's reduction of its k-slices unrolled (the KS shared-memory loads
# issue together, then the adds in the same order; rolled, each add waited for its own load). Prediction: the
# small N = 1 rows (512x1x512, 1024x1x512: 5.4-5.8 us, 0.6-1.0 us above the stream floor) lose 0.3-0.5 us; the
# large ones, bound by HBM, do not change. (1) GPU 1: every KIND 2 candidate on gpu_gemm_verify's awkward fp32
# shapes, all layouts; then the build before (.gpu/dlbtune_old, 048d888) on the 27 rows of gemm_inference_server
# with N <= 16. (2) GPU 0: this build on the same rows, then on gemm_training's 30 rows with N <= 16. All with
# --fp32-math ffma, default search, fresh databases.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
d=docs/results/gemm_fp32
(
	CUDA_VISIBLE_DEVICES=1 DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY="KIND=2" timeout -k 5 150 ./tests/gpu_gemm_verify fp32 \
		>$OUT/verify2.log 2>&1
	echo "== gpu_gemm_verify fp32, KIND=2 (GPU 1): exit $? at $(( $(date +%s) - t0 )) s"
	CUDA_VISIBLE_DEVICES=1 timeout -s INT -k 10 200 .gpu/dlbtune_old --op gemm --prec fp32 --suite $d/inference_n16.csv \
		--db /tmp/dbo --min-search 2 --fp32-math ffma --csv >$OUT/inf_old.csv 2>$OUT/inf_old.err
	echo "== inference N <= 16, before (GPU 1): exit $? at $(( $(date +%s) - t0 )) s"
) &
g1=$!
CUDA_VISIBLE_DEVICES=0 timeout -s INT -k 10 200 ./dlbtune --op gemm --prec fp32 --suite $d/inference_n16.csv \
	--db /tmp/dbn --min-search 2 --fp32-math ffma --csv >$OUT/inf_new.csv 2>$OUT/inf_new.err
echo "== inference N <= 16, this build (GPU 0): exit $? at $(( $(date +%s) - t0 )) s"
CUDA_VISIBLE_DEVICES=0 timeout -s INT -k 10 $(( 380 - ($(date +%s) - t0) )) ./dlbtune --op gemm --prec fp32 \
	--suite $d/training_n16.csv --db /tmp/dbt --min-search 2 --fp32-math ffma --csv >$OUT/tr_new.csv 2>$OUT/tr_new.err
echo "== training N <= 16, this build (GPU 0): exit $? at $(( $(date +%s) - t0 )) s"
wait $g1 # not a bare wait: that waits for tee too
grep -E "wrong|refereed|self-test|FAIL" $OUT/verify2.log | tail -3 | cut -c1-220
python3 - $OUT/inf_old.csv $OUT/inf_new.csv <<'PY'
import csv, sys
old = {(r["m"], r["n"], r["k"], r["layout"]): r for r in csv.DictReader(open(sys.argv[1]))}
print("| shape | before: us, family, paired | after | after / before (us) |")
print("|---|---|---|---|")
for r in csv.DictReader(open(sys.argv[2])):
    o = old.get((r["m"], r["n"], r["k"], r["layout"]))
    if not o:
        continue
    print("| %sx%sx%s %s | %s, %s, %s | %s, %s, %s | %.3f |" % (r["m"], r["n"], r["k"], r["layout"], o["tuned_us"],
          o["kernel_family"], o["paired_speedup"], r["tuned_us"], r["kernel_family"], r["paired_speedup"],
          float(r["tuned_us"]) / float(o["tuned_us"])))
PY
for f in inf_old inf_new tr_new; do echo "== $f"; python3 $d/summary.py $OUT/$f.csv | head -6; done
gzip $OUT/verify2.log
tar czf $OUT/errs.tgz -C $OUT inf_old.err inf_new.err tr_new.err && rm $OUT/*.err
echo "== total $(( $(date +%s) - t0 )) s"
