#!/bin/bash
# Device calls 121 (issue 28, and fp16/int8 GEMM's weak skinny rows), prepared 2026-11-30 (a sixth session). PART=3
# ran at its end (0.978, logs/run121/part3, docs/NOTES.md item 201); PART=1 and 2 ran in the next session (items 202,
# 203: conv batch 1 1.447x, speech 1.469x; gpu_gemm_verify found a trap on HEAD, fixed by b0e980b; the diff landed).
# PART=1 (about 420 s): conv's 67 batch-1 and speech rows (run115.sh PART=1) on HEAD's build, which has 66312fa
#   (the conv consumers' wgmma descriptors in uniform registers: run120, 0.957 on 14 KIND 2 rows). Against run119's
#   1.403x (batch 1) and 1.451x (speech). Prediction: speech about 1.47x, batch 1 about 1.43x.
# PART=2 (about 300 s): tests/gpu_gemm_verify fp16, int8 and fp32 with DLB_VERIFY_ONLY='KIND=1 ' (every wgmma
#   candidate, every split, every layout, the test's odd shapes) on the build with next_gemm_wg_uniform.diff
#   (.gpu/ggw: dlbtune and gpu_gemm_verify). Must pass: 0 wrong.
# PART=3 (about 200 s): HEAD (.gpu/ghd/dlbtune) against ggw on wgs1_rows121.csv: 18 DeepBench fp16 rows whose
#   tc_h200 winner is a one-consumer-warpgroup wgmma kernel (KIND 1 WGS 1; paired 0.83-1.04x of cuBLAS), each timed
#   on that configuration alone (every split of it, 5 samples), each build twice; the table and geomean ggw/hd.
#   Prediction: as conv's one-warpgroup tiles, 3-10% faster (the SASS: R2UR in the k-tile loop, 4 an HGMMA, gone).
# If PART=2 passes and PART=3 wins, apply the diff: git apply docs/results/tc_h200/next_gemm_wg_uniform.diff.
# One call each: mkdir -p $OUT && OUT=$OUT PART=N bash docs/results/tc_h200/run121.sh.
# Build: make && make tests/gpu_gemm_verify; mkdir -p .gpu/ghd && cp dlbtune .gpu/ghd/; git apply
# docs/results/tc_h200/next_gemm_wg_uniform.diff && make && make tests/gpu_gemm_verify && mkdir -p .gpu/ggw &&
# cp dlbtune tests/gpu_gemm_verify .gpu/ggw/ && git checkout templates && make; bundle (../shared/gpu/bundle .gpu
# ./dlbtune); carry dlbtune and .gpu.
. .gpu/env.sh
part=${PART:-1}
t0=$(date +%s)
if [ $part = 1 ]; then
	mkdir -p $OUT/p1 && OUT=$OUT/p1 PART=1 LIMIT=160 bash docs/results/conv/run115.sh
	tar czf $OUT/p1.tgz -C $OUT p1 && rm -rf $OUT/p1
	exit 0
fi
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
if [ $part = 2 ]; then
	for p in fp16 int8 fp32; do
		DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY='KIND=1 ' timeout 280 .gpu/ggw/gpu_gemm_verify $p >$OUT/verify_$p.txt 2>&1
		echo "== gpu_gemm_verify $p KIND=1 (.gpu/ggw): exit $? at $(( $(date +%s) - t0 )) s"; tail -3 $OUT/verify_$p.txt
	done
	exit 0
fi
rows=docs/results/tc_h200/wgs1_rows121.csv
for pass in 1 2; do
	for b in hd gw; do
		bin=.gpu/ghd/dlbtune; [ $b = gw ] && bin=.gpu/ggw/dlbtune
		re=; [ $pass = 2 ] && re=--retune
		: >$OUT/${b}_$pass.csv
		tail -n +2 $rows | while IFS=, read -r m n k at bt cfg; do
			cfg=${cfg//\"/}
			ta=N; [ $at = 1 ] && ta=T
			tb=N; [ $bt = 1 ] && tb=T
			timeout -s INT -k 5 60 $bin --op gemm --prec fp16 --m $m --n $n --k $k --ta $ta --tb $tb --only "$cfg" \
				--strategy exhaustive --fixed-samples 5 --paired 0 $re --db /tmp/db121_$b --csv 2>>$OUT/${b}_$pass.err |
				sed -n 2p >>$OUT/${b}_$pass.csv
		done
		echo "== $b pass $pass at $(( $(date +%s) - t0 )) s: $(wc -l <$OUT/${b}_$pass.csv) rows"
	done
done
python3 docs/results/tc_h200/ab121.py $OUT
gzip -f $OUT/*.err
