#!/bin/bash
# Device calls 125 (issue 28), prepared 2026-11-30 (a seventh session; no GPU time was left): next_conv_halo.diff,
# KIND 5 in dlbtune (templates/conv_fp16.cu's conv_body_halo: proto_halo.cu's kernel with the filters read from KRSC
# by one tiled copy, general R x S, pads, K a multiple of 64 in groups of blocks; docs/NOTES.md item 207).
# Built here: make check's conv_cli, sass_check and cli_errors pass with it; its 4 KIND 5 kernels have 0 spills and
# HGMMA; 392 sampled cubins of the other kinds (fp16 every 6th, fp32 every 6th) are byte-identical to HEAD's, so
# only KIND 5 needs the device.
# Build: git apply docs/results/conv/next_conv_halo.diff && make; ../shared/gpu/bundle .gpu ./dlbtune; carry
# dlbtune and .gpu. One call a part: mkdir -p $OUT && OUT=$OUT PART=N bash docs/results/conv/run125.sh.
# PART=1 (about 60 s): KIND 5 alone, every candidate, on tests/conv_halo.csv (tests/gpu_conv.sh's new section):
#   must be 5 of 5 rows verified, 0 wrong, 0 faults. Then KIND 5 against KIND 2's best in the harness on the two
#   350x80 c64 k64 rows. Prediction: n2 about 11 µs (KIND 2 15.4), n1 about 7.2 (9.6); slower than proto_halo's
#   hot-L2 times by the x and y traffic (up to 1 µs).
# PART=2 (about 420 s): the 67 batch-1 and speech rows (run115.sh PART=1) on the diff's build. Prediction: speech
#   from 1.469x to about 1.51x (the two 350x80 rows), batch 1 up by 56x56 c64 k64 and 54x54 c64 k64.
# If PART=1 passes and PART=2 does not lose, land the diff (git apply; NOTES; README).
. .gpu/env.sh
part=${PART:-1}
if [ $part = 2 ]; then
	mkdir -p $OUT/p2 && OUT=$OUT/p2 PART=1 LIMIT=160 bash docs/results/conv/run115.sh
	tar czf $OUT/p2.tgz -C $OUT p2 && rm -rf $OUT/p2
	exit 0
fi
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
timeout 200 ./dlbtune --op conv --suite tests/conv_halo.csv --prec fp16 --only KIND=5 --strategy exhaustive \
	--fixed-samples 1 --db /tmp/db125v --csv -v >$OUT/verify.csv 2>$OUT/verify.err
echo "== KIND 5 alone on tests/conv_halo.csv: exit $? at $(( $(date +%s) - t0 )) s"
grep " ok, .* wrong, .* faults)" $OUT/verify.err
p="--op conv --prec fp16 --layout NHWC --w 350 --h 80 --c 64 --k 64 --s 3 --r 3 --pad-w 1 --pad-h 1 --power-ms 0"
for n in 2 1; do
	for k in 5 2; do
		timeout 120 ./dlbtune $p --n $n --only "KIND=$k" --db /tmp/db125_${n}_$k 2>&1 | grep -E "^\[|side by side" | tail -2
	done
done
echo "== done at $(( $(date +%s) - t0 )) s"
gzip -f $OUT/*.err
