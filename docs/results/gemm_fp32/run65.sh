#!/bin/bash
# Device calls 65 for issue 30, prepared 2026-12-01 (docs/NOTES.md item 254); run 2026-12-02 on one H200 (item 256, logs/run65).
# next_tma_tile.diff: KIND 3, "FFMA tile, TMA": KIND 0's 8 x 8 thread tile, its SERPENTINE order and its epilogue
# (split-K included), each k-tile of A and B brought by the tensor copy engine (thread 0 issues two boxes into a
# ring of STAGES mbarriers; no swizzle, zeros outside the matrices), NN problems with M and K multiples of 4, sm_90.
# 14 candidates: BM, BN 64 or 128, BK 16 or 32 (32 only at 128x128), STAGES 3 or 4; 156-205 registers, no spills
# (NVRTC, sm_90a). run64's probe of the same loop: 0.967x on the five worst NN rows, where KIND 0 is at 0.877x.
# gpu_gemm_verify gains 132x68x1764 (M, K multiples of 4, K no multiple of 16: the TMA k tail, splits 2-16).
# Build here:
#   make -j2 && mkdir -p .gpu/gbase && cp dlbtune .gpu/gbase/                       (the landed build)
#   git apply docs/results/gemm_fp32/next_tma_tile.diff && make -j2 && make -j2 tests/gpu_gemm_verify
#   cp tests/gpu_gemm_verify .gpu/ && ../shared/gpu/bundle .gpu ./dlbtune tests/gpu_gemm_verify
# Carry dlbtune and .gpu.
# PART=1: gpu_gemm_verify fp32, every candidate (KIND 3 on the NN shapes it takes, every split; all the others
#   on the new shape too). Prediction: 0 wrong.
# PART=2: A/B, `--fp32-math ffma`, default search, --min-search 2, fresh databases: large_rows.csv (15 NN rows
#   >= 1 GFLOP; run63: 0.920x), base then new.
# PART=3: gemm_inference_server whole with ffma on the new build (run63: 1.153x; >= 1 GFLOP 0.918x).
# PART=4: gemm_training whole with ffma (run63: 1.056x; >= 1 GFLOP 0.936x; 560 s is not enough for all 160
#   rows: run PART=4 twice on one machine, the second reads the first's rows back).
# Prediction: KIND 3 wins most NN rows >= 1 GFLOP, 4-8% faster than KIND 0's winner there (the probe's 0.967x
#   had 128 registers; these take 156-205, so fewer blocks an SM); the inference class 0.918x -> 0.95-0.97x, the
#   training class 0.936x -> 0.95-0.96x (its TN rows unchanged). Under 2% on NN: the probe's gain came from
#   something this port lost (registers, occupancy), and the next look is ncu on both.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
t0=$(date +%s)
summary() {
	for f in "$@"; do echo "  ${f##*/}:"; python3 $d/summary.py "$f"; done
	[ $# = 2 ] || return 0
	python3 $d/ab_rows.py "$@" base tma
}
case "${PART:-1}" in
1)
	DLB_REQUIRE_GPU=1 DLB_VERIFY_CACHE=/tmp/kc timeout -s INT -k 5 560 .gpu/gpu_gemm_verify fp32 >$OUT/verify.txt 2>&1
	echo "== gpu_gemm_verify fp32: exit $? at $(( $(date +%s) - t0 )) s"
	grep "gpu_gemm_verify" $OUT/verify.txt | tail -4
	gzip -f $OUT/verify.txt
	;;
2)
	for b in base new; do
		bin=./dlbtune; [ $b = base ] && bin=.gpu/gbase/dlbtune
		timeout -s INT -k 5 240 $bin --op gemm --prec fp32 --suite $d/large_rows.csv --db /tmp/db_ab_$b --min-search 2 \
			--fp32-math ffma --csv >$OUT/large_rows_$b.csv 2>/tmp/ab_$b.err
		echo "== large_rows.csv, ffma, $b: exit $? at $(( $(date +%s) - t0 )) s"
	done
	summary $OUT/large_rows_base.csv $OUT/large_rows_new.csv
	cat /tmp/ab_*.err | gzip >$OUT/ab.err.gz
	;;
3|4)
	s=gemm_inference_server; [ $PART = 4 ] && s=gemm_training
	timeout -s INT -k 10 560 ./dlbtune --op gemm --prec fp32 --suite src/ops/gemm/suites/$s.csv \
		--db /tmp/db_$s --min-search 2 --fp32-math ffma --csv >$OUT/${s}_ffma.csv 2>$OUT/${s}_ffma.err
	echo "== $s ffma: exit $? at $(( $(date +%s) - t0 )) s"
	summary $OUT/${s}_ffma.csv
	gzip -f $OUT/${s}_ffma.err
	;;
esac
