#!/bin/bash
# Device calls 61 for fp32 GEMM (issue 30), prepared 2026-12-01 (a tenth session; its device time spent). PART=2 ran
# in the eleventh session on one H200 (logs/run61, docs/NOTES.md item 230): em slower on the winner's tile; not landed.
# next_edge_mask.diff (em): the FFMA tile's checked loads (load_edge, taken by every block that crosses C's edge,
# and with M < BM by every block) take the k left in the tile and the rows left once a call as ints and compare
# them with each vector's constant offset, instead of 64-bit coordinates a vector (docs/NOTES.md items 226, 229;
# edge_emulate.py checks the two against each other). The unchecked path is unchanged, but ptxas allocates the
# whole kernel again: of the 652 tile kernels some gain registers and some lose them (item 229), so the large
# interior shapes are timed too. logs/run61/edge_split_probe.diff (item 228) is the older probe, not needed now.
# PART=1 (about 120 s): DLB_VERIFY_ONLY='KIND=0' gpu_gemm_verify fp32 on em: every tile candidate on 14 shapes x 4
#   layouts (M, N and K edges in every combination). Must say 0 wrong, 0 errors.
# PART=2 (about 200 s): hd then em, exhaustive over the splits of two fixed tiles on 35x8457x4096, NN and TN
#   (BM 16 BN 128 BK 32 TM 8 TN 2, the default search's winner: 127 -> 95 registers; BM 64 BN 128 BK 16 TM 8 TN 8,
#   cuBLAS's shape); then fewrows_rows.csv (the 12 M = 35 rows), --fp32-math ffma, default search, hd then em.
#   Prediction: the 16x128 tile 0.85-0.92 of hd's time; the 12 rows 0.84x -> 0.90-0.97x. Within 2%: the checked
#   loads are not the gap, and it is the loop's schedule (item 132).
# PART=3 (about 540 s): large_rows.csv (15 >= 1 GFLOP inference rows), --fp32-math ffma --min-search 2, hd then em:
#   the regression check. Prediction: em/hd time 0.99-1.01 (interior blocks dominate; their loads are unchanged).
# Land it if PART=1 passes, PART=2 gains, PART=3 does not lose and its spills are gone (tests/compile_all.sh
# fails with it as it is: one sm_80 candidate spills, NOTES 229): git apply docs/results/gemm_fp32/next_edge_mask.diff.
# One call each: mkdir -p $OUT && OUT=$OUT PART=N bash docs/results/gemm_fp32/run61.sh.
# Build: git apply docs/results/gemm_fp32/next_edge_mask.diff && make && make tests/gpu_gemm_verify && mkdir -p
# .gpu/em && cp dlbtune tests/gpu_gemm_verify .gpu/em/ && git checkout templates && make; bundle
# (../shared/gpu/bundle .gpu ./dlbtune); carry dlbtune and .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
t0=$(date +%s)
case "${PART:-1}" in
1)
	DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY='KIND=0' timeout 500 .gpu/em/gpu_gemm_verify fp32 >$OUT/verify_em.txt 2>&1
	echo "== gpu_gemm_verify fp32 KIND=0 (em): exit $? at $(( $(date +%s) - t0 )) s"; grep -E "candidates|FAIL" $OUT/verify_em.txt | tail -5 ;;
2)
	for b in hd em; do
		bin=./dlbtune; [ $b = em ] && bin=.gpu/em/dlbtune
		for o in 'BM=16 BN=128 BK=32 TM=8 TN=2 KIND=0' 'BM=64 BN=128 BK=16 TM=8 TN=8 KIND=0'; do
			for ta in 0 1; do
				timeout 60 $bin --op gemm --prec fp32 --m 35 --n 8457 --k 4096 --ta $ta --only "$o" \
					--strategy exhaustive --power-ms 0 --db /tmp/db61x$b$ta$RANDOM --csv 2>/dev/null | python3 -c "
import csv, sys
for r in csv.DictReader(sys.stdin): print('  $b ta=$ta', r['paired_tuned_us'], 'us', r['paired_speedup'] + 'x', 'verified', r['verified'], r['best_config'])"
			done
		done
	done
	for b in hd em; do
		bin=./dlbtune; [ $b = em ] && bin=.gpu/em/dlbtune
		timeout -s INT -k 10 200 $bin --op gemm --prec fp32 --suite $d/fewrows_rows.csv --fp32-math ffma -v \
			--db /tmp/db61$b --csv >$OUT/rows_$b.csv 2>$OUT/rows_$b.err
		echo "== $b: exit $? at $(( $(date +%s) - t0 )) s"
	done
	python3 $d/ab_rows.py $OUT/rows_hd.csv $OUT/rows_em.csv hd em
	;;
3)
	for b in hd em; do
		bin=./dlbtune; [ $b = em ] && bin=.gpu/em/dlbtune
		timeout -s INT -k 10 260 $bin --op gemm --prec fp32 --suite $d/large_rows.csv --fp32-math ffma --min-search 2 \
			--db /tmp/db61l$b --csv >$OUT/large_$b.csv 2>$OUT/large_$b.err
		echo "== large_rows.csv, ffma, $b: exit $? at $(( $(date +%s) - t0 )) s"
	done
	python3 $d/summary.py $OUT/large_hd.csv; python3 $d/summary.py $OUT/large_em.csv
	python3 $d/ab_rows.py $OUT/large_hd.csv $OUT/large_em.csv hd em ;;
esac
gzip -f $OUT/*.err 2>/dev/null
