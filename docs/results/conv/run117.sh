#!/bin/bash
# Device call 117 for convolution (issue 28), prepared and run 2026-11-30 (a fifth session) on one H200; logs in
# logs/run117, docs/NOTES.md item 197: ps2 verified (GPU_CONV_DIRECT fp32 and fp16 passed), 0.998-1.003 of ds: not landed.
# run116 PART=2 found one row slower with cc8f19e's stores: 480x48 c1 k16 3x3 n1, 4.03 -> 4.18 µs (1.037), in both
# passes and in the suite run; its K (16) is below BN (32), so it never takes the new unchecked path
# (docs/NOTES.md item 195). ps2: the direct kernels' epilogue where the layout is NHWC and K even but the tile's last
# filters lie past K: one predicated two-filter store a column (k < K: k is even, so both filters or neither) instead
# of the old test for a pair and its fallback of two one-filter stores with their own tests; NCHW and odd K keep the
# one-filter stores. The same stores as before (a pair where k + 1 < K, which for even k and K is k < K).
# Registers (compile -v, every KIND 3 and 4 candidate on an NHWC row, fp16 and fp32): unchanged but for three fp16
# KIND 4 kernels (BM 64 BN 32 WARPS_M 4: 104, 104, 103 -> 93, 93, 91); no spill that was not there before.
# One call: mkdir -p $OUT && OUT=$OUT bash docs/results/conv/run117.sh; it leaves $OUT/log.txt, $OUT/ab.tgz (a's files,
# written before b starts) and b's $OUT/gpu_conv_direct_{fp32,fp16}.txt, so a call cut short still returns what ran.
#   a. ds (HEAD, cc8f19e: .gpu/cds/dlbtune) against ps2 (.gpu/cps2/dlbtune) on direct_rows116.csv, fp16 KIND 3 and
#      4 alone, exhaustive, each build twice (the second --retune), as run116 PART=2 (about 30 s). Prediction:
#      480x48 c1 k16 back to about 4.03 µs (0.96 of ds) if the old path's code was what it lost to; the 13 rows on
#      the unchecked path within 1%.
#   b. tests/gpu_conv.sh with GPU_CONV_DIRECT=1 on ps2's build, fp32 then fp16: every KIND 3 (fp32's 3xTF32 and
#      fp16's) and KIND 4 candidate on every awkward row they apply to, the only kernels conv_direct_store serves
#      (about 200 s cold: an estimate). It must pass before ps2 lands.
# Build: git apply docs/results/conv/next_partial_store.diff && make && mkdir -p .gpu/cps2 && cp dlbtune .gpu/cps2/
# && git checkout templates/conv_common.cu && make; bundle; carry dlbtune and .gpu.
. .gpu/env.sh
O=$OUT/ab
rm -rf $O && mkdir -p $O
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
t0=$(date +%s)
rm -rf /tmp/db8_*
for pass in 1 2; do
	for b in ds ps2; do
		bin=.gpu/cds/dlbtune; [ $b = ps2 ] && bin=.gpu/cps2/dlbtune
		re=; [ $pass = 2 ] && re=--retune
		timeout -s INT -k 5 120 $bin --op conv --prec fp16 --layout NHWC --suite $d/direct_rows116.csv --only "KIND=3|KIND=4" \
			--strategy exhaustive --paired 0 $re -v --db /tmp/db8_$b --csv >$O/${b}_$pass.csv 2>$O/${b}_$pass.err
		echo "== $b pass $pass: exit $? at $(( $(date +%s) - t0 )) s; $(grep -c ' ok, 0 wrong, 0 faults)' $O/${b}_$pass.err) of 14 rows without a wrong answer or fault"
	done
done
python3 $d/ab_direct116.py $O ds ps2
gzip -f $O/*.err
tar czf $OUT/ab.tgz -C $O . && rm -rf $O
for p in fp32 fp16; do
	DLB_REQUIRE_GPU=1 GPU_CONV_DIRECT=1 GPU_CONV_PRECS=$p top_builddir=.gpu/cps2 timeout 300 sh tests/gpu_conv.sh >$OUT/gpu_conv_direct_$p.txt 2>&1
	echo "== gpu_conv direct $p (.gpu/cps2/dlbtune): exit $? at $(( $(date +%s) - t0 )) s"; tail -4 $OUT/gpu_conv_direct_$p.txt
done
