#!/bin/bash
# Device calls 74 for issue 30 (docs/NOTES.md item 272), prepared 2026-12-02 after run73. run71 measured training's
# ffma >= 1 GFLOP class at 0.944x (997efe5, compiled first, default search). Since then KIND 3 reads B in [k][n]
# boxes where B is transposed or M >= 1024 (items 270-271): 6 NT rows 0.884x -> 0.940x, 29 NN/TN rows 3.7% faster;
# estimated class 0.958x. This measures it whole, as run71 did (same steps, this build).
# Build here: make -j2 && ../shared/gpu/bundle .gpu ./dlbtune; carry dlbtune, .gpu
# PART=1: compile the suite's ffma kernels (16 threads), then the suite until LIMIT (first call, 590 s).
# PART=2: the same command again on the same database (the rows done are kept; LIMIT 585 on the warm machine).
# PART=3 (and 4, the same again): gemm_inference_server the same way (run65: 1.183x, >= 1 GFLOP 0.965x, cold, 2 s).
# Prediction: training whole >= 1.07x, >= 1 GFLOP 0.955-0.965x; inference >= 1 GFLOP 0.97-0.98x.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
t0=$(date +%s)
s=gemm_training
[ "${PART:-1}" -ge 3 ] && s=gemm_inference_server
case "${PART:-1}" in
1|3)
	timeout -s INT -k 5 240 ./dlbtune compile --op gemm --prec fp32 --arch sm_90a --fp32-math ffma \
		--suite src/ops/gemm/suites/$s.csv --db /tmp/db_$s >$OUT/compile_$s.txt 2>&1
	echo "== compile $s: exit $? at $(( $(date +%s) - t0 )) s"; tail -2 $OUT/compile_$s.txt
	;;
esac
left=$(( ${LIMIT:-590} - ($(date +%s) - t0) ))
timeout -s INT -k 10 $left ./dlbtune --op gemm --prec fp32 --suite src/ops/gemm/suites/$s.csv --db /tmp/db_$s \
	--fp32-math ffma --csv >$OUT/${s}_ffma.csv 2>$OUT/${s}_ffma.err
echo "== $s ffma: exit $? at $(( $(date +%s) - t0 )) s"
python3 $d/summary.py $OUT/${s}_ffma.csv
gzip -f $OUT/${s}_ffma.err
