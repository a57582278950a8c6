#!/bin/bash
# Device calls 72 for issue 30 (docs/NOTES.md item 269), 2026-12-02. run71 (this session, H200) measured training's
# ffma >= 1 GFLOP class at 0.944x, compiled first, default search. Its NT rows (6, 0.84-0.93x) ran KIND 3 on a
# transposed copy of B (8*K*N more bytes a call), or KIND 0. This build reads B transposed as stored: its TMA box
# is [k][n] like A's, a lane reads four columns of one depth in one LDS.128 (gemm_nt; NVRTC: 134-205 registers
# against NN's 134-255, no spills). TN and TT still copy A.
# Build here: make -j2 && make -j2 tests/gpu_gemm_verify && cp tests/gpu_gemm_verify .gpu/ &&
#   ../shared/gpu/bundle .gpu ./dlbtune tests/gpu_gemm_verify. Carry dlbtune and .gpu.
# PART=1: (a) every KIND 3 candidate on every verify shape, all four layouts, every split; if 0 wrong:
#   (b) nt_rows.csv, compiled first, default search, --fp32-math ffma (compare run71's rows);
#   (c) form_rows.csv: the same sizes NN and NT, --only KIND=3 (the two forms of the loop head to head).
# Prediction: 0 wrong; NT rows 2-3% faster where KIND 3 won (the copy gone: 1760x7133x1760 0.840x -> 0.86x), more
# if the [k][n] form's loop is faster than the [n][k] one; (c) NT within 1% of NN or faster.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
t0=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY=KIND=3 timeout -s INT -k 5 150 .gpu/gpu_gemm_verify fp32 >$OUT/verify.txt 2>&1
echo "== gpu_gemm_verify fp32 KIND=3: exit $? at $(( $(date +%s) - t0 )) s"
grep "gpu_gemm_verify" $OUT/verify.txt | tail -4
gzip -f $OUT/verify.txt
grep -q " 0 wrong, 0 errors" <(zcat $OUT/verify.txt.gz) || exit 1
timeout -s INT -k 5 60 ./dlbtune compile --op gemm --prec fp32 --arch sm_90a --fp32-math ffma --suite $d/nt_rows.csv \
	--db /tmp/db72 >$OUT/compile_nt.txt 2>&1
echo "== compile nt_rows: exit $? at $(( $(date +%s) - t0 )) s"; tail -2 $OUT/compile_nt.txt
timeout -s INT -k 5 150 ./dlbtune --op gemm --prec fp32 --suite $d/nt_rows.csv --db /tmp/db72 --fp32-math ffma \
	--csv >$OUT/nt_rows.csv 2>$OUT/nt_rows.err
echo "== nt_rows ffma: exit $? at $(( $(date +%s) - t0 )) s"
python3 $d/summary.py $OUT/nt_rows.csv
gzip -f $OUT/nt_rows.err
left=$(( ${LIMIT:-540} - ($(date +%s) - t0) ))
timeout -s INT -k 5 $left ./dlbtune --op gemm --prec fp32 --suite $d/form_rows.csv --db /tmp/db72f --only KIND=3 \
	--min-search 1 --csv >$OUT/form_rows.csv 2>$OUT/form_rows.err
echo "== form_rows KIND 3: exit $? at $(( $(date +%s) - t0 )) s"
cut -d, -f1-4,6-8,20,25 $OUT/form_rows.csv
gzip -f $OUT/form_rows.err
