#!/bin/sh
# gpu_conv: every fp32 convolution candidate verified on awkward shapes (tests/conv_awkward.csv: a 1x1
# filter with stride 2, 7x7 with pad 3 and stride 2 on 3 channels, DeepBench's 20x5 speech filter on 700x161
# at batch 1, odd sizes with dilation 2 and unequal pads and strides, batch-1 layers small enough for split-K
# over (c, r, s), 128 channels with stride 2, dilation 2 and 72 filters for the copy engine's im2col kernel,
# and 1x1 stride 1 on 128 channels, 105 pixels and 72 filters, which it reads as a plain matrix; each of those
# in NCHW and NHWC; then rows for the direct kernel (KIND 3) with odd strides along the width, 2 and 3
# channels, 70 and 37 filters (two filter tiles; odd in NHWC), dilation 2 along the height, unequal pads, one
# with 9 taps, fewer than one mma step, and one with 504 (56 channels, 3x3), near the kernel's bound, where
# fp32's accumulated rounding is largest; and two 1x1 rows for the fp32 FFMA kernel's 1x1 loads: 8x6 pixels (H·W a
# multiple of 4: x read four pixels at a time in NCHW) and 13x11 with padding and strides 2 and 3 (NHWC): the
# exhaustive strategy verifies every candidate and split before
# its one timing sample, in fp32, fp16 (rows with C a multiple of 8 run the fp16 cp.async kernel, NCHW
# ones after copying x and w to NHWC) and int8 (C padded to a multiple of 4; exact).
# 0 wrong, 0 faults, every row verified, split-K tried. int8: cuDNN's int8 verified and timed on an NHWC row,
# n/a with its reason on NCHW ones, and cuDNN fp16 timed on every row.
# GPU_CONV_KCACHE=DIR keeps the compiled kernels in DIR (each database's kernel cache a link to it), so that a run
# cut short while compiling cold leaves them for the next (fp16 cold took more than 520 s on 16 cores: run142).
# GPU_CONV_PRECS="fp16" runs one precision; GPU_CONV_DIRECT=1 only the passes of one kernel family alone (KIND 3, 4
# and 5: every candidate of theirs on every row they apply to), for a change to those kernels alone. Exit 77 without
# a GPU.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
bin="$top_builddir/dlbtune"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "${top_srcdir:-.}/tests/lib.sh"
require_gpu gpu_conv
fail=0
# seed_db DB: DB's kernel cache a link to $GPU_CONV_KCACHE, where that is set
seed_db() {
	[ -n "${GPU_CONV_KCACHE:-}" ] || return 0
	mkdir -p "$1" "$GPU_CONV_KCACHE" && { [ -e "$1/kernels" ] || ln -s "$GPU_CONV_KCACHE" "$1/kernels"; }
}
for prec in ${GPU_CONV_PRECS:-fp32 fp16 int8}; do
	[ "${GPU_CONV_DIRECT:-0}" = 1 ] && continue
	seed_db "$tmp/db"
	"$bin" --op conv --suite "$top_srcdir/tests/conv_awkward.csv" --prec $prec --strategy exhaustive --fixed-samples 1 --db "$tmp/db" \
		--csv -v >"$tmp/out.csv" 2>"$tmp/err"
	rc=$?
	[ $rc = 0 ] || { echo "FAIL: $prec: dlbtune exited $rc"; tail -20 "$tmp/err"; fail=1; }
	lines=$(grep -c " ok, .* wrong, .* faults)" "$tmp/err")
	bad=$(grep " ok, .* wrong, .* faults)" "$tmp/err" | grep -vc " ok, 0 wrong, 0 faults)")
	[ "$lines" = 23 ] && [ "$bad" = 0 ] || { echo "FAIL: $prec: $lines problems searched, $bad with wrong answers or faults:";
		grep " ok, .* wrong, .* faults)" "$tmp/err"; fail=1; }
	col='NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'
	# quoted fields (the configurations) may hold commas: blank them first
	sed 's/"[^"]*"/x/g' "$tmp/out.csv" | awk -F, "$col"' !c["verified"] || $c["verified"] != 1 {bad=1} END {exit bad}' ||
		{ echo "FAIL: $prec: a row without a verified winner"; fail=1; }
	# rows with split-K variants search more points than the configurations alone
	sed -n 's/.*exhaustive: \([0-9]*\) of .*/\1/p' "$tmp/err" | sort -n | awk 'NR == 1 {lo = $1} {hi = $1} END {exit !(hi > lo)}' ||
		{ echo "FAIL: $prec: no row tried a split-K variant"; fail=1; }
	if [ $prec = int8 ]; then
		sed 's/"[^"]*"/x/g' "$tmp/out.csv" | awk -F, "$col"' $c["layout"] == "NHWC" && $c["cudnn_find_us"] + 0 > 0 {n++}
			END {exit !(n >= 1)}' || { echo "FAIL: int8: no NHWC row with a cuDNN int8 time"; fail=1; }
		sed 's/"[^"]*"/x/g' "$tmp/out.csv" | awk -F, "$col"' !($c["cudnn_fp16_us"] + 0 > 0) {bad=1} END {exit bad}' ||
			{ echo "FAIL: int8: a row without cuDNN fp16's time"; fail=1; }
		"$bin" db show --db "$tmp/db" --op conv --prec int8 --w 56 --h 56 --c 64 --n 1 --k 32 --s 1 --r 1 \
			--stride-w 2 --stride-h 2 >"$tmp/show" 2>&1
		grep -q " n/a .*n/a: " "$tmp/show" || { echo "FAIL: int8: the NCHW row does not say why cuDNN has no int8 time:";
			cat "$tmp/show"; fail=1; }
	fi
	grep " ok, .* wrong, .* faults)" "$tmp/err" | sed 's/^ *//' | cut -c1-120
done
# kind_alone PREC KIND ROWS MIN: KIND alone, every candidate, on the suite ROWS (at least MIN rows): each row
# verified, its winner a KIND candidate
kind_alone() {
	want=$(($(wc -l <"$3") - 1))
	seed_db "$tmp/db$2$1"
	"$bin" --op conv --suite "$3" --prec $1 --only "KIND=$2" --strategy exhaustive --fixed-samples 1 \
		--db "$tmp/db$2$1" --csv -v >"$tmp/out$2.csv" 2>"$tmp/err$2" || { echo "FAIL: $1 KIND=$2: dlbtune exited $?"; tail -20 "$tmp/err$2"; fail=1; }
	lines=$(grep -c " ok, 0 wrong, 0 faults)" "$tmp/err$2")
	won=$(grep -c "KIND=$2" "$tmp/out$2.csv")
	echo "$1 KIND=$2 alone: $lines of $want rows verified without a wrong answer or fault, $won won by KIND $2"
	[ "$want" -ge $4 ] && [ "$lines" = "$want" ] && [ "$won" = "$want" ] ||
		{ echo "FAIL: $1 KIND=$2:"; grep " ok, .* wrong, .* faults)" "$tmp/err$2"; tail -5 "$tmp/err$2"; fail=1; }
}
# the direct kernel (KIND 3: fp16, and fp32 in 3xTF32) alone on every awkward row it applies to (C·R·S <= 512)
awk -F, 'NR == 1 || $3 * $7 * $6 <= 512' "$top_srcdir/tests/conv_awkward.csv" >"$tmp/direct.csv"
for prec in ${GPU_CONV_PRECS:-fp32 fp16 int8}; do
	[ $prec = int8 ] || kind_alone $prec 3 "$tmp/direct.csv" 11 # int8 has no KIND
done
# fp16's KIND 4 (the direct kernel read with ldmatrix: NHWC, C a multiple of 8, more than one tap) alone on the
# awkward NHWC rows it applies to and on tests/conv_direct_ld.csv's: DeepSpeech's 341x79 c32 10x5 at stride 2 (C·R·S 1600, past KIND
# 3's bound), C = 8 with strides 3 and 1 and dilation 2 along the width, C = 40 (C/8 odd: slots unpadded) with 70
# filters (three tiles of 32, the last partial), C·R·S 576 with dilation 2, and 7x7 at stride 2 on 24 channels
case " ${GPU_CONV_PRECS:-fp32 fp16 int8} " in
*" fp16 "*)
	{ awk -F, 'NR == 1 || ($14 ~ /^NHWC/ && $3 % 8 == 0 && $6 * $7 > 1)' "$top_srcdir/tests/conv_awkward.csv"
	  tail -n +2 "$top_srcdir/tests/conv_direct_ld.csv"; } >"$tmp/direct4.csv"
	kind_alone fp16 4 "$tmp/direct4.csv" 9
	# fp16's KIND 5 (wgmma on a halo of x, the filters resident: NHWC, C = 64, stride and dilation 1) alone on
	# tests/conv_halo.csv: DeepBench's 350x80 speech layer at batch 2; 70x9 (a last column tile of 6 pixels, a last
	# row tile of one row) with 128 filters at batch 3 (two filter tiles: blocks in two groups); 37x5 with a
	# 1x3 filter and pads 0 and 2; a 1x1 filter with 192 filters (three groups); 45x12 with a 5x3 filter and pads 2
	# and 1, whose shared memory leaves only BM 128 with STAGES 2
	kind_alone fp16 5 "$top_srcdir/tests/conv_halo.csv" 5
	;;
esac
echo "gpu_conv: $([ $fail = 0 ] && echo passed || echo failed)"
exit $fail
