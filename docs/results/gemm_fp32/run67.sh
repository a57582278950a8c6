#!/bin/bash
# Device calls 67 for issue 30 (docs/NOTES.md item 261). run66's PART=1 (this session, H200): the transposing
# in-kernel TN form of KIND 3 (next_tma_tn.diff) ran slower than run64's [m][k] form (best TN configuration a row
# 0.877x against 0.917x of cublasSgemm), so it is not applied. Instead KIND 3 runs TN, NT and TT on copies of the
# transposed operands in NN's layout (templates/gemm_fp32.cu's transpose, inside the timed launch): NN's kernel
# unchanged, 8*M*K (TN) or 8*K*N (NT) more bytes of traffic a call.
# Build here: make -j2 && make -j2 tests/gpu_gemm_verify && cp tests/gpu_gemm_verify .gpu/ &&
#   ../shared/gpu/bundle .gpu ./dlbtune tests/gpu_gemm_verify. Carry dlbtune and .gpu.
# PART=1: every KIND 3 candidate on every verify shape, all four layouts, every split (gpu_gemm_verify), then, if
#   0 wrong, gemm_training with ffma until the call's time runs out. PART=2: the same database, the rest of it.
# Prediction: 0 wrong; TN rows where KIND 3 wins NN take KIND 3 at about NN's time plus the copy (0.2-0.7% at
#   N >= 7000), training's >= 1 GFLOP TN class 0.932x -> 0.945x, NT 0.876x -> 0.92x, the class 0.940x -> 0.948x.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
s=gemm_training
t0=$(date +%s)
case "${PART:-1}" in
3) # every fp32 candidate of every family (the transpose kernel is in every module)
	DLB_REQUIRE_GPU=1 timeout -s INT -k 5 200 .gpu/gpu_gemm_verify fp32 >$OUT/verify_all.txt 2>&1
	echo "== verify all fp32: exit $? at $(( $(date +%s) - t0 )) s"
	grep gpu_gemm_verify $OUT/verify_all.txt | tail -3
	gzip -f $OUT/verify_all.txt
	exit 0 ;;
4) # the two rows whose best fell in parts 1-2: each family's best alone
	for r in "7680 24000 2560 T N" "4096 7133 4096 N T"; do for o in "KIND=0" "KIND=3"; do
		set -- $r
		timeout -s INT 55 ./dlbtune --op gemm --prec fp32 --m $1 --n $2 --k $3 --ta $4 --tb $5 --only "$o" \
			--db /tmp/db_ab --min-search 2 --csv 2>/dev/null | tail -1 | cut -d, -f1-8,20-27
		echo "== $o $r at $(( $(date +%s) - t0 )) s"
	done; done
	exit 0 ;;
esac
if [ "${PART:-1}" = 1 ]; then
	DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY=KIND=3 timeout -s INT -k 5 200 .gpu/gpu_gemm_verify fp32 >$OUT/verify.txt 2>&1
	echo "== gpu_gemm_verify fp32 KIND=3: exit $? at $(( $(date +%s) - t0 )) s"
	grep "gpu_gemm_verify" $OUT/verify.txt | tail -4
	grep -q " 0 wrong, 0 errors" $OUT/verify.txt || { gzip -f $OUT/verify.txt; exit 1; }
	gzip -f $OUT/verify.txt
fi
left=$(( ${LIMIT:-590} - ($(date +%s) - t0) ))
timeout -s INT -k 10 $left ./dlbtune --op gemm --prec fp32 --suite src/ops/gemm/suites/$s.csv \
	--db /tmp/db_$s --min-search 2 --fp32-math ffma --csv >$OUT/${s}_ffma.csv 2>$OUT/${s}_ffma.err
echo "== $s ffma: exit $? at $(( $(date +%s) - t0 )) s"
python3 $d/summary.py $OUT/${s}_ffma.csv
gzip -f $OUT/${s}_ffma.err
