#!/bin/bash
# Device call 63 for issue 30, prepared 2026-12-01 (docs/NOTES.md item 252).
# KIND 0's FFMA order and C's stores (SERPENTINE, tiles of 8 x 8 or more a thread): b[j] held while a's column is
# walked down for one j and up for the next, C stored an element at a time. sass_bank.py's two-bank port model
# (run62 showed it tracks time: 0.59 -> 0.38 extra cycles an FFMA took 0.903 the time) puts these tiles at
# 0.08-0.14 extra cycles an FFMA in all four layouts, from 0.19-0.28 (cuBLAS 0.055). The sums and their order in k
# are unchanged: the same bits.
# Build here:
#   git stash; make -j2; mkdir -p .gpu/gbase; cp dlbtune .gpu/gbase/; git stash pop     (the landed build)
#   make -j2 && make -j2 tests/gpu_gemm_verify && cp tests/gpu_gemm_verify .gpu/
#   ../shared/gpu/bundle .gpu ./dlbtune tests/gpu_gemm_verify
# Carry dlbtune and .gpu.
# PART=1: gpu_gemm_verify fp32 on every KIND 0 candidate (compiled there into /tmp/kc, which the later parts of
#   the same machine reuse), every split, its
#   shapes x 4 layouts (edges, unaligned leading dimensions, split-K). Prediction: 0 wrong.
# PART=2: A/B, `--fp32-math ffma`, default search, --min-search 2, fresh databases, the builds in turn: large_rows.csv
#   (15 NN rows of gemm_inference_server >= 1 GFLOP; run54: 0.889x) and large_tnnt_rows.csv (8 TN and 2 NT rows of
#   gemm_training >= 1 GFLOP).
# PART=3: gemm_inference_server whole with ffma on the new build (run53: 1.129x; >= 1 GFLOP 0.890x).
# PART=4: gemm_training whole with ffma on the new build (run46: >= 1 GFLOP 0.907x).
# Prediction: the new build 0.93-0.96 the base's time on the A/B rows (the probe's 0.21 of the model was 0.903;
#   these tiles move by 0.10-0.14); the >= 1 GFLOP ffma class 0.89-0.91x -> 0.93-0.95x.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
t0=$(date +%s)
summary() {
	for f in "$@"; do echo "  ${f##*/}:"; python3 $d/summary.py "$f"; done
	[ $# = 2 ] || return 0
	python3 $d/ab_rows.py "$@" base serpentine
}
case "${PART:-1}" in
1)
	DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY='KIND=0' DLB_VERIFY_CACHE=/tmp/kc timeout -s INT -k 5 560 .gpu/gpu_gemm_verify fp32 \
		>$OUT/verify.txt 2>&1
	echo "== gpu_gemm_verify fp32 KIND 0: exit $? at $(( $(date +%s) - t0 )) s"
	grep "gpu_gemm_verify" $OUT/verify.txt | tail -4
	gzip -f $OUT/verify.txt
	;;
2)
	for rows in large_rows large_tnnt_rows; do
		for b in base new; do
			bin=./dlbtune; [ $b = base ] && bin=.gpu/gbase/dlbtune
			[ $b = new ] && [ -d /tmp/kc ] && cp -r /tmp/kc /tmp/db_${rows}_$b # PART=1's kernel cache
			timeout -s INT -k 5 200 $bin --op gemm --prec fp32 --suite $d/$rows.csv --db /tmp/db_${rows}_$b --min-search 2 \
				--fp32-math ffma --csv >$OUT/${rows}_$b.csv 2>/tmp/${rows}_$b.err
			echo "== $rows.csv, ffma, $b: exit $? at $(( $(date +%s) - t0 )) s"
		done
		summary $OUT/${rows}_base.csv $OUT/${rows}_new.csv
	done
	cat /tmp/large_*.err | gzip >$OUT/ab.err.gz
	;;
3|4)
	s=gemm_inference_server; [ $PART = 4 ] && s=gemm_training
	[ -d /tmp/kc ] && cp -r /tmp/kc /tmp/db_$s
	timeout -s INT -k 10 560 ./dlbtune --op gemm --prec fp32 --suite src/ops/gemm/suites/$s.csv \
		--db /tmp/db_$s --min-search 2 --fp32-math ffma --csv >$OUT/${s}_ffma.csv 2>$OUT/${s}_ffma.err
	echo "== $s ffma: exit $? at $(( $(date +%s) - t0 )) s"
	summary $OUT/${s}_ffma.csv
	gzip -f $OUT/${s}_ffma.err
	;;
esac
