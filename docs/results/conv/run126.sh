#!/bin/bash
# Device calls 126 (issue 28), 2026-12-01 (an eighth session): KIND 5 for C a multiple of 64 (docs/NOTES.md item
# 209). Two builds ran PART=1:
#   v1 (/tmp only, not kept): a stage a whole 64-channel block (halo and the block's filters, 106 KB for 3x3), two
#      stages, each stage's wgmmas waited for: verified (gpu_conv passed), 1.2-1.5x slower than KIND 2 on every
#      row (logs/run126/v1).
#   v2 (/tmp only): a stage a 64-channel block and one filter row (its HALO_TR input rows and S taps of filters,
#      41 KB for 3x3 at BM 128), STAGES up to 4, one stage's wgmmas kept in flight: verified, no faster than v1
#      (175x40 c128 n1 9.14 µs, n2 13.70; logs/run126/v2).
#   v3 (this tree): v2 with BN 128 as well (m64n128k16: 3/128 bytes of shared memory read an FMA instead of
#      1/16, at which m64n64k16 with both operands in shared memory needs all of the SM's 128 B/clk), its filters
#      streamed also where C = 64. 0 spills, 168 registers, HGMMA; the other kinds' source unchanged (the change
#      is inside #if KIND == 5).
# Build: ./bootstrap && ./configure && make; ../shared/gpu/bundle .gpu ./dlbtune; carry dlbtune and .gpu.
# One call a part: mkdir -p $OUT && OUT=$OUT PART=N bash docs/results/conv/run126.sh.
# PART=1 (about 150 s): tests/gpu_conv.sh with GPU_CONV_PRECS=fp16 GPU_CONV_DIRECT=1 (KIND 3, 4 and 5 alone;
#   conv_halo.csv now 9 rows, 4 with C > 64); then KIND 5 alone, default search, paired with cuDNN, on
#   c64plus126.csv: the 3x3 stride-1 speech and batch-1 rows with C > 64. run125's default-search times (KIND 2)
#   for them: 175x40 c128 n1 7.82 n2 11.60; 84x20 c256 n1 9.38 n2 11.07; 42x10 c512 n1 10.93 n2 14.78;
#   56x56 c128 k256 7.26; 28x28 c128 6.03.
#   112x112 c64 k128 n1 (run125: KIND 5 BN 64, 7.45 µs) added for v3.
#   Prediction (v3): BN 128 wins the rows with K >= 128 by 10-20% over v2; (v2): 175x40 c128 n2 about 10 µs and n1 about 7.3 (KIND 2 11.60 and 7.82); 56x56 c128 k256 a
#   tie; the 42x10, 84x20 and 28x28 rows slower than KIND 2 (too few pixel tiles, no split over C).
# PART=2 (about 550 s): the 67 batch-1 and speech rows as run125 PART=2 (thirds cut at 180 s).
. .gpu/env.sh
part=${PART:-1}
if [ $part = 2 ]; then
	mkdir -p $OUT/p2 && OUT=$OUT/p2 PART=1 LIMIT=180 bash docs/results/conv/run115.sh
	tar czf $OUT/p2.tgz -C $OUT p2 && rm -rf $OUT/p2
	exit 0
fi
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
GPU_CONV_PRECS=fp16 GPU_CONV_DIRECT=1 timeout 300 sh tests/gpu_conv.sh
echo "== gpu_conv (fp16, KIND 3, 4, 5 alone): exit $? at $(( $(date +%s) - t0 )) s"
timeout 200 ./dlbtune --op conv --suite docs/results/conv/c64plus126.csv --prec fp16 --only KIND=5 --power-ms 0 \
	--db /tmp/db126 --csv -v >$OUT/k5.csv 2>$OUT/k5.err
echo "== KIND 5 on c64plus126.csv: exit $? at $(( $(date +%s) - t0 )) s"
grep -E "^\[|side by side" $OUT/k5.err
gzip -f $OUT/*.err
