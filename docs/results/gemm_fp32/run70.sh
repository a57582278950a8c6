#!/bin/bash
# Device calls 70 for issue 30 (docs/NOTES.md item 266), 2026-12-02.
# The FFMA families' split-K factors were the powers of two the split rule allows. With few tiles (C with 35 rows,
# or 64-128 columns) a power of two can leave the last wave of blocks nearly empty: 35x8457x4096 in 64x128 tiles
# is 67 tiles; split 8 is 536 blocks, 5 rounds of 132 SMs for 32 k-steps each (160), split 13 is 871 blocks, 7
# rounds of 20 (140). dlb_gemm_splits(fill) adds, between two allowed powers, the factor of least such cost where
# it beats both (at most one an octave; the template is unchanged: any split works, kc = ceil(K/s) in BK).
# Also in this build: next_kind3_8x16.diff (run69: verified, won 2 of 12 head-to-head rows).
# Build here: make -j2 && make -j2 tests/gpu_gemm_verify && cp tests/gpu_gemm_verify .gpu/ && the HEAD build's
# dlbtune as .gpu/dlbtune_old; ../shared/gpu/bundle .gpu ./dlbtune tests/gpu_gemm_verify; carry dlbtune, .gpu
# PART=1: gpu_gemm_verify fp32, every candidate with up to 12 splits (was 8). Prediction: 0 wrong.
# PART=2: small_rows.csv (training's 34 >= 1 GFLOP rows with M <= 64 or N <= 128), --fp32-math ffma, default
#   search, new build then the old (HEAD e09b26c) on the same GPU, each its own database, the kernel cache shared.
#   Prediction: the M = 35 rows 5-12% faster (0.85x -> 0.90-0.95x), the N = 64-128 rows 0-8%, N <= 32 rows
#   unchanged within noise; small_rows geomean +3-5%.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
t0=$(date +%s)
case "${PART:-1}" in
1)
	DLB_REQUIRE_GPU=1 timeout -s INT -k 5 ${VLIMIT:-240} .gpu/gpu_gemm_verify fp32 >$OUT/verify.txt 2>&1
	echo "== gpu_gemm_verify fp32: exit $? at $(( $(date +%s) - t0 )) s"
	grep "gpu_gemm_verify" $OUT/verify.txt | tail -4
	grep -c "^WRONG\|^ERROR" $OUT/verify.txt
	gzip -f $OUT/verify.txt
	;;
2)
	# RETUNE=1: again on the same databases (--retune), their kernel caches now warm (the first, cold runs
	# spent the search's 3 s floor partly waiting for NVRTC: run70's first call)
	w=${RETUNE:+_w}
	for b in ${BUILDS:-new old}; do
		bin=./dlbtune; [ $b = old ] && bin=.gpu/dlbtune_old
		timeout -s INT -k 5 ${LIMIT:-250} $bin --op gemm --prec fp32 --suite $d/small_rows.csv --db /tmp/db_small_$b \
			--fp32-math ffma ${RETUNE:+--retune} --csv >$OUT/small_$b$w.csv 2>$OUT/small_$b$w.err
		echo "== small_rows $b$w: exit $? at $(( $(date +%s) - t0 )) s"
		python3 $d/summary.py $OUT/small_$b$w.csv
		gzip -f $OUT/small_$b$w.err
	done
	if [ -s $OUT/small_old$w.csv ] && [ -s $OUT/small_new$w.csv ]; then
		python3 $d/ab_rows.py $OUT/small_old$w.csv $OUT/small_new$w.csv old new 2>&1 | tail -3
	fi
	;;
esac
