#!/bin/bash
# Device call 76 for issue 30 (docs/NOTES.md item 277), prepared 2026-12-02: next_nk_pairs.diff, KIND 3's [n][k]
# loop (NN and TN below M = 1024) with the odd lane groups loading their column pairs swapped, so that a B load's
# four 16-byte chunks fall on two bank halves instead of one (run74's ncu: 4.33 M conflicts in 17.3 M wavefronts,
# none in the [k][n] loop). Same FMAs in the same order for every element; registers 128-160 at BK 16 (154-157
# before), BK 32 unchanged (the swap is off there); +64 instructions a kernel (the swap back, once).
# Build here: make -j2 && mkdir -p .gpu/gbase && cp dlbtune .gpu/gbase/ (the landed build); then
#   git apply docs/results/gemm_fp32/next_nk_pairs.diff && make -j2 && make -j2 tests/gpu_gemm_verify &&
#   cp tests/gpu_gemm_verify .gpu/ && ../shared/gpu/bundle .gpu ./dlbtune tests/gpu_gemm_verify; carry dlbtune, .gpu
# (a) every KIND 3 candidate verified on the new build (all shapes, layouts, splits); stops unless 0 wrong;
# (b) ncu on 512x1500x2816 NN, BM=128 BN=64 BK=16 (run74: 17.30 M wavefronts, 4.33 M conflicts);
# (c) small_m_rows.csv (the 28 rows of both suites with M = 512, N > 16, NN or TN, >= 1 GFLOP), --only KIND=3,
#     the landed build then the new one on fresh databases (ab_rows.py base new).
# DEV (default 0): the GPU it runs on (DEV=3 beside run75.sh's three jobs on an x4 machine, BIN=.gpu/gbase/dlbtune).
# Prediction: (b) wavefronts 17.3 M -> 13.0 M (as NT's [k][n] loop), conflicts 4.33 M -> about 0; (c) time
# 0.92-0.96 (NT/NN was 0.914-0.937 in run72's form_rows), so M = 512 TN rows 0.894x -> about 0.95x.
. .gpu/env.sh
export CUDA_VISIBLE_DEVICES=${DEV:-0}
exec > >(tee $OUT/log76.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
t0=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY=KIND=3 timeout -s INT -k 5 150 .gpu/gpu_gemm_verify fp32 >$OUT/verify76.txt 2>&1
echo "== gpu_gemm_verify fp32 KIND=3: exit $? at $(( $(date +%s) - t0 )) s"
grep "gpu_gemm_verify" $OUT/verify76.txt | tail -4
gzip -f $OUT/verify76.txt
grep -q " 0 wrong, 0 errors" <(zcat $OUT/verify76.txt.gz) || exit 1
m=gpu__time_duration.sum,launch__registers_per_thread,smsp__inst_executed_op_shared_ld.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
timeout -k 5 60 ncu --clock-control none -k regex:gemm_n --launch-count 1 --metrics $m ./dlbtune --op gemm \
	--prec fp32 --m 512 --n 1500 --k 2816 --only 'BM=128 BN=64 BK=16 TM=8 TN=8 KIND=3' --power-ms 0 \
	--fixed-samples 1 --db /tmp/db76n >$OUT/ncu_nn512.txt 2>&1
echo "== ncu: exit $? at $(( $(date +%s) - t0 )) s"
grep -E "gemm_n|gpu__time|registers|shared|bank|pipe_fma|issue_active" $OUT/ncu_nn512.txt | head -9
for b in base new; do
	bin=./dlbtune; [ $b = base ] && bin=.gpu/gbase/dlbtune
	left=$(( ${LIMIT:-560} - ($(date +%s) - t0) )); [ $b = base ] && left=$(( left / 2 ))
	timeout -s INT -k 5 $left $bin --op gemm --prec fp32 --suite $d/small_m_rows.csv --db /tmp/db76$b --only KIND=3 \
		--min-search 1 --csv >$OUT/small_m_$b.csv 2>$OUT/small_m_$b.err
	echo "== small_m_rows KIND 3, $b: exit $? at $(( $(date +%s) - t0 )) s"
	gzip -f $OUT/small_m_$b.err
done
python3 $d/ab_rows.py $OUT/small_m_base.csv $OUT/small_m_new.csv base new
