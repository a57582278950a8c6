#!/bin/sh
# conv_cli: the convolution family without a GPU. Bad problems are refused with exit 2 and the reason (a zero
# or negative size, a stride of 0, a filter larger than the padded input, on the command line and in a suite
# row); both built-in suites parse; each precision's space (fp16, fp32, int8) has candidates and a sample of
# each kernel family (every candidate under `make check-full`) compiles for sm_90a in each of its source specialisations, the wgmma kernel with no register spills and the
# others with no more spilling candidates than the known count; with a suite only the layouts the suite runs
# are compiled.
top_builddir=${top_builddir:-.}
bin="$top_builddir/dlbtune"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export DLBTUNE_DB="$tmp/db"
shape="--w 7 --h 7 --c 3 --n 1 --k 8 --s 3 --r 3"

. "${top_srcdir:-.}/tests/lib.sh"
refused "zero width" "--w '0': expected a size in 1.." "$bin" lookup --op conv --w 0 --h 7 --c 3 --n 1 --k 8 --s 3 --r 3
refused "negative height" "--h '-7'" "$bin" lookup --op conv --w 7 --h -7 --c 3 --n 1 --k 8 --s 3 --r 3
refused "stride 0" "--stride-w '0'" "$bin" lookup --op conv $shape --stride-w 0
refused "filter larger than the input" "the 9x3 filter (dilation 1x1) is larger than the padded 7x7 input" \
	"$bin" lookup --op conv --w 7 --h 7 --c 3 --n 1 --k 8 --s 9 --r 3
refused "dilated filter larger than the input" "the 3x3 filter (dilation 5x1) is larger than the padded 9x7 input" \
	"$bin" lookup --op conv $shape --dil-w 5 --pad-w 1
refused "a reduction over 2^31 taps" "C x R x S = 1048576 x 64 x 64" \
	"$bin" lookup --op conv --w 64 --h 64 --c 1048576 --n 1 --k 8 --s 64 --r 64
refused "a dim of another op" "--m is not a dimension of conv" "$bin" lookup --op conv $shape --m 5
refused "an unknown layout" "unknown layout 'NCWH'" "$bin" lookup --op conv $shape --layout NCWH
printf 'w,h,c,n,k,s,r,pad_w,pad_h,stride_w,stride_h\n7,7,3,1,8,3,3,1,1,1,1\n7,7,3,1,8,9,3,0,0,1,1\n' >"$tmp/bad.csv"
refused "a suite row" "bad.csv:3: the 9x3 filter" "$bin" compile --op conv --suite "$tmp/bad.csv"

# both built-in suites parse (compile reads the suite before compiling; --every keeps it short)
for s in training inference_server; do
	out=$("$bin" compile --op conv --suite $s --every 40 2>&1) || { echo "FAIL: suite $s: $out"; fail=1; }
done

# each precision's space compiles for sm_90a in all its source specialisations: a sample of every kernel family
# (every 4th, 12th, 18th configuration: about 80 cubins each), every candidate under `make check-full`
for prec in fp16 fp32 int8; do
	n=$("$bin" space --op conv --prec $prec --arch sm_90a 2>&1 | sed -n 's/^candidates to compile *\([0-9]*\)$/\1/p')
	[ "${n:-0}" -ge 50 ] || { echo "FAIL: space --op conv --prec $prec: '$n' candidates"; fail=1; }
	case $prec in fp32) every=$(sample 4) ;; fp16) every=$(sample 12) ;; *) every=$(sample 18) ;; esac
	progress "conv_cli: conv $prec for sm_90a, every ${every}th configuration (minutes on 2 cores)"
	out=$("$bin" compile --op conv --prec $prec --arch sm_90a --every $every -v 2>&1)
	last=$(printf '%s\n' "$out" | tail -n 1)
	echo "conv $prec sm_90a: $last"
	# fp32: each configuration in both layouts (FFMA, or 3xTF32 for KIND 1 and 2); fp16: each in its cp.async kernel
	# (NHWC with C % 8 == 0), and those with STAGES=2 and BK <= 32 in its register-staged kernels for NCHW and NHWC
	# as well, except the direct kernel (KIND 3), which has only those two, and KIND 4 and 5, NHWC8 alone; int8: each in
	# its four (NCHW and NHWC; 16-byte copies where C % 16 == 0, else 4-byte). fp16 and fp32: KIND 2 once more in
	# both layouts for 1x1 stride-1 layers ("-1x1": x read as a plain matrix); fp32's KIND 0 too, on every 1x1 layer
	# (its loads decoded once)
	case $prec in
	fp32) specs="NCHW, NHWC, NCHW3xTF32, NHWC3xTF32, NCHW3xTF32-1x1, NHWC3xTF32-1x1, NCHW-1x1 and NHWC-1x1" k=2 ;;
	int8) specs="NCHW4, NHWC4, NCHW16 and NHWC16" k=4 ;;
	*) specs="NCHW, NHWC, NHWC8, NCHW8, NHWC8-1x1 and NCHW8-1x1" k=2 ;;
	esac
	if [ "$every" = 1 ]; then
		[ $prec = fp16 ] && n2=$("$bin" space --op conv --prec fp16 --arch sm_90a -v 2>/dev/null | grep 'STAGES=2' | grep -v 'KIND=[34]' | grep -vc 'BK=64') || n2=0
		[ $prec = fp16 ] && n5=$("$bin" space --op conv --prec fp16 --arch sm_90a -v 2>/dev/null | grep -c ' KIND=[45]$') || n5=0
		[ $prec = int8 ] && n3=0 || n3=$("$bin" space --op conv --prec $prec --arch sm_90a -v 2>/dev/null | grep -c ' KIND=2$')
		[ $prec = fp32 ] && n4=$("$bin" space --op conv --prec fp32 --arch sm_90a -v 2>/dev/null | grep -c ' KIND=0$') || n4=0
		want="compiled $((k * n - n5 + 2 * n2 + 2 * n3 + 2 * n4)) candidates (as $specs) for sm_90a, 0 failed"
		[ "$last" = "$want" ] || { echo "FAIL: compile $prec: $last (wanted: $want)"; fail=1; }
	else
		got=$(printf '%s\n' "$last" | sed -n "s/^compiled \([0-9]*\) candidates (every ${every}th configuration, as $specs) for sm_90a, 0 failed$/\1/p")
		# the sample is drawn before the device limits, n counted after them: at least k·n/every, less one configuration
		[ "${got:-0}" -ge $((k * n / every - k)) ] || { echo "FAIL: compile $prec: $last (wanted at least $((k * n / every - k)), as $specs, 0 failed)"; fail=1; }
		case $prec in int8) kinds= ;; fp16) kinds="0 1 2 3 4 5" ;; *) kinds="0 1 2 3" ;; esac # int8 has one kernel family
		for kind in $kinds; do # every kernel family in the sample
			printf '%s\n' "$out" | grep -q "KIND=$kind .* regs" || { echo "FAIL: $prec: no compiled candidate of KIND=$kind"; fail=1; }
		done
	fi
	[ $prec = fp32 ] && every32=$every
	# spills as ptxas reports them: none in the wgmma kernels (fp16 KIND=1, 2 and 5, fp32's 3xTF32); elsewhere no more candidates than
	# the known count (docs/NOTES.md item 51: the register-staged fp16 and fp32 kernels, int8's mma.sync)
	spills=$(printf '%s\n' "$out" | grep -E '[1-9][0-9]* B spill st|/[1-9][0-9]* B ld')
	nsp=$(printf '%s\n' "$spills" | grep -c 'regs')
	nwg=$(printf '%s\n' "$spills" | grep -c 'KIND=[125] ')
	case $prec in fp16) maxsp=36 ;; fp32) maxsp=15 ;; *) maxsp=298 ;; esac
	echo "conv $prec sm_90a: $nsp candidates spill registers (known: at most $maxsp), $nwg of them wgmma"
	[ "$nsp" -le $maxsp ] && [ "$nwg" = 0 ] ||
		{ echo "FAIL: $prec candidates spill registers:"; printf '%s\n' "$spills" | cut -c1-200; fail=1; }
done
# the wgmma tile that spilled whatever the sample: 128x256 with two consumer warpgroups in NCHW8 at STAGES 2-3, where
# ptxas kept the block's first tile live across setmaxnreg (docs/NOTES.md items 173 and 176); its six kernels, none spilling
out=$("$bin" compile --op conv --prec fp16 --arch sm_90a --layout NCHW --w 28 --h 28 --c 256 --k 512 --n 8 --r 3 --s 3 \
	--pad-w 1 --pad-h 1 --only 'BM=128 BN=256 BK=64 WARPS_M=2 WARPS_N=1 STAGES=' -v 2>&1 | grep ' NCHW8 .* regs')
n=$(printf '%s\n' "$out" | grep -c 'STAGES=[234] KIND=[12] NCHW8 .*conv_nchw: [0-9]* regs, 0 B spill st/0 B ld')
[ "$n" = 6 ] || { echo "FAIL: 128x256 WARPS_M 2 NCHW8: $n of 6 kernels without a spill:"; printf '%s\n' "$out" | cut -c1-60,250-330; fail=1; }
# DeepBench ran NCHW: its suite needs only the NCHW cubins (and the "-1x1" ones: KIND 0's for its 1x1 layers, KIND 2's
# for its 1x1 stride-1 layers; the sample keeps each KIND's first configuration), all of them already in the kernel cache
out=$("$bin" compile --op conv --arch sm_90a --suite training --every $every32 2>&1 | tail -n 2)
printf '%s\n' "$out" | grep -q "^conv fp32: [1-9][0-9]* read from the kernel cache, 0 compiled by NVRTC" &&
	printf '%s\n' "$out" | grep -q "^compiled [1-9][0-9]* candidates (.*as NCHW, NCHW3xTF32, NCHW3xTF32-1x1 and NCHW-1x1) for sm_90a, 0 failed" ||
	{ echo "FAIL: compile --suite training: $out"; fail=1; }
# --fp32-math ffma: conv fp32 keeps its FFMA family only (the 3xTF32 ones left out, as --only 'family:FFMA'
# does), from the kernel cache; gemm fp32 keeps its FFMA tiles and skinny family, its 3xTF32 (KIND 1) left out
out=$("$bin" compile --op conv --prec fp32 --arch sm_90a --every $every32 --fp32-math ffma -v 2>&1)
kept=$(printf '%s\n' "$out" | grep "KIND=" | grep -v "left out")
printf '%s\n' "$kept" | grep -q "KIND=0 " && ! printf '%s\n' "$kept" | grep -q "KIND=[1-9]" &&
	printf '%s\n' "$out" | grep -q "KIND=[1-3] .*left out (--only)" ||
	{ echo "FAIL: --fp32-math ffma did not keep exactly conv's FFMA family: $(printf '%s\n' "$out" | tail -n 3)"; fail=1; }
out=$("$bin" compile --op gemm --arch sm_90a --every 97 --fp32-math ffma -v 2>&1)
kept=$(printf '%s\n' "$out" | grep "KIND=" | grep -v "left out")
printf '%s\n' "$kept" | grep -q "KIND=0 " && printf '%s\n' "$kept" | grep -q "KIND=2 " &&
	! printf '%s\n' "$kept" | grep -q "KIND=1 " && printf '%s\n' "$out" | grep -q "KIND=1 .*left out (--only)" ||
	{ echo "FAIL: --fp32-math ffma did not keep exactly gemm's FFMA families: $(printf '%s\n' "$out" | tail -n 3)"; fail=1; }
printf '%s\n' "$out" | tail -n 1 | grep -q "^compiled [1-9][0-9]* candidates .*, 0 failed$" ||
	{ echo "FAIL: compile gemm --fp32-math ffma: $(printf '%s\n' "$out" | tail -n 1)"; fail=1; }
exit $fail
