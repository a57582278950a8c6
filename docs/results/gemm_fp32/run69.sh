#!/bin/bash
# Device calls 69 for issue 30 (docs/NOTES.md item 264), prepared 2026-12-02 without device time left.
# After run67, training's >= 1 GFLOP class (ffma) is 0.941x; 32 of its rows with N = 24000 or 48000 are won by
# KIND 0's 128x128 BK 16 tile of 8 x 16 a thread (128 threads, 252 registers), a shape KIND 3 did not have.
# next_kind3_8x16.diff adds it to KIND 3 (128x128 BK 16, TM 8, TN 16, STAGES 3 or 4: 2 configurations; 255
# registers, no spills under NVRTC; the FFMA loop 2137 instructions, KIND 0's 2139).
# Build here (run67's training table is the base):
#   git apply docs/results/gemm_fp32/next_kind3_8x16.diff && make -j2 && make -j2 tests/gpu_gemm_verify
#   cp tests/gpu_gemm_verify .gpu/ && ../shared/gpu/bundle .gpu ./dlbtune tests/gpu_gemm_verify; carry dlbtune, .gpu
# PART=1: `DLB_VERIFY_ONLY=KIND=3 gpu_gemm_verify fp32` (now 16 candidates, all layouts). Prediction: 0 wrong.
# PART=2: head to head on n24k_rows.csv (12 rows, NN and TN, where run67's winner is KIND 0's 8 x 16):
#   `--only "BM=128 BN=128 BK=16 TM=8 TN=16"` (KIND 0's tile and KIND 3's two), fresh database. Prediction (not
#   strong: sass_bank.py's model gives KIND 3's 8 x 16 loop 0.247 extra cycles an FFMA against KIND 0's 0.092,
#   but KIND 0 spends a quarter of its stalls at the staging barrier that TMA removes): KIND 3 wins most NN
#   rows by 0-5%, and TN rows by less (the copy).
# PART=3: if PART=2 favours KIND 3: gemm_training whole with ffma on the new build (590 s, then the rest on the
#   same database, LIMIT=585). Prediction: >= 1 GFLOP 0.941x -> 0.945-0.955x.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
s=gemm_training
t0=$(date +%s)
case "${PART:-1}" in
1)
	DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY=KIND=3 timeout -s INT -k 5 200 .gpu/gpu_gemm_verify fp32 >$OUT/verify.txt 2>&1
	echo "== gpu_gemm_verify fp32 KIND=3: exit $? at $(( $(date +%s) - t0 )) s"
	grep "gpu_gemm_verify" $OUT/verify.txt | tail -4
	gzip -f $OUT/verify.txt
	;;
2)
	timeout -s INT -k 5 400 ./dlbtune --op gemm --prec fp32 --suite $d/n24k_rows.csv --db /tmp/db_816 \
		--only "BM=128 BN=128 BK=16 TM=8 TN=16" --min-search 1 --csv >$OUT/n24k_816.csv 2>$OUT/n24k_816.err
	echo "== n24k_rows, 8 x 16 head to head: exit $? at $(( $(date +%s) - t0 )) s"
	python3 $d/summary.py $OUT/n24k_816.csv
	gzip -f $OUT/n24k_816.err
	;;
3)
	left=$(( ${LIMIT:-590} - ($(date +%s) - t0) ))
	timeout -s INT -k 10 $left ./dlbtune --op gemm --prec fp32 --suite src/ops/gemm/suites/$s.csv \
		--db /tmp/db_$s --min-search 2 --fp32-math ffma --csv >$OUT/${s}_ffma.csv 2>$OUT/${s}_ffma.err
	echo "== $s ffma: exit $? at $(( $(date +%s) - t0 )) s"
	python3 $d/summary.py $OUT/${s}_ffma.csv
	gzip -f $OUT/${s}_ffma.err
	;;
esac
