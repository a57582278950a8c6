#!/bin/bash
# Device calls 71 for issue 30 (docs/NOTES.md item 267), prepared 2026-12-02 after run70.
# Training's ffma >= 1 GFLOP class was measured at 0.941x in run67, on a cold kernel cache with --min-search 2
# (to fit the device time). Since then: KIND 3's 8 x 16 (item 265) and split factors that fill the SMs (item
# 266: +1.3% on 26 of the class's 100 rows, warm caches). run70 also showed that a search on a cold cache
# evaluates about half the candidates (item 40's trade). This measures the suite as a user who compiles first
# would run it: `dlbtune compile --suite`, then the default search (3 s minimum), on one database.
# Build here: make -j2 && ../shared/gpu/bundle .gpu ./dlbtune; carry dlbtune, .gpu
# PART=1: compile the suite's ffma kernels (16 threads), then the suite until LIMIT (first call, 590 s).
# PART=2: the same command again on the same database (the rows done are kept; LIMIT 585 on the warm machine).
# Prediction: the whole suite >= 1.05x; >= 1 GFLOP 0.941x -> 0.947-0.955x; the M = 35 rows about 0.88x.
# PART=3 (if time is left): gemm_inference_server the same way (run65: 1.183x, >= 1 GFLOP 0.965x, cold, 2 s).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
t0=$(date +%s)
s=gemm_training
[ "${PART:-1}" = 3 ] && s=gemm_inference_server
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
