#!/bin/bash
# Device call 73 for issue 30 (docs/NOTES.md item 269), 2026-12-02. run72 (this session, H200): KIND 3's [k][n]
# loop (gemm_nt, B read as stored where transposed) verified (32 candidates, 1928 runs, 0 wrong) and ran 6-9%
# faster than NN's [n][k] loop on the same sizes. This build runs NN and TN problems with M >= 1024 through it
# too, on a transposed copy of B made inside the timed launch (8*K*N bytes, about 53/M of the product's time).
# Build here: make -j2 && make -j2 tests/gpu_gemm_verify && cp tests/gpu_gemm_verify .gpu/ &&
#   ../shared/gpu/bundle .gpu ./dlbtune tests/gpu_gemm_verify. Carry dlbtune and .gpu.
# (a) every KIND 3 candidate on every verify shape, all four layouts, every split (the copy path: 1760x16x1760,
#   1760^3, 5124x1x1760, 1760x3x5123); if 0 wrong, (b) big_nntn_rows.csv (30 of training's NN and TN rows >= 1
#   GFLOP with M >= 1024), compiled first, default search, --fp32-math ffma; compare run71's same rows.
# Prediction: 0 wrong; rows where KIND 3 wins gain 3-7% (M = 1024: 2-3%); the 30 rows 0.96x -> 0.99x.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
t0=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY=KIND=3 timeout -s INT -k 5 120 .gpu/gpu_gemm_verify fp32 >$OUT/verify.txt 2>&1
echo "== gpu_gemm_verify fp32 KIND=3: exit $? at $(( $(date +%s) - t0 )) s"
grep "gpu_gemm_verify" $OUT/verify.txt | tail -4
gzip -f $OUT/verify.txt
grep -q " 0 wrong, 0 errors" <(zcat $OUT/verify.txt.gz) || exit 1
timeout -s INT -k 5 90 ./dlbtune compile --op gemm --prec fp32 --arch sm_90a --fp32-math ffma \
	--suite $d/big_nntn_rows.csv --db /tmp/db73 >$OUT/compile.txt 2>&1
echo "== compile big_nntn_rows: exit $? at $(( $(date +%s) - t0 )) s"; tail -2 $OUT/compile.txt
left=$(( ${LIMIT:-400} - ($(date +%s) - t0) ))
timeout -s INT -k 10 $left ./dlbtune --op gemm --prec fp32 --suite $d/big_nntn_rows.csv --db /tmp/db73 \
	--fp32-math ffma --csv >$OUT/big_nntn.csv 2>$OUT/big_nntn.err
echo "== big_nntn_rows ffma: exit $? at $(( $(date +%s) - t0 )) s"
python3 $d/summary.py $OUT/big_nntn.csv
gzip -f $OUT/big_nntn.err
