#!/bin/sh
# compile_all: the fp32 GEMM space compiles with NVRTC for sm_80 and sm_90a (every 4th configuration of each
# kernel family; every one under `make check-full`), and a sample of each tensor-core family for sm_90a (no GPU
# needed). Register spills, as ptxas reports them: none
# in the wgmma families; elsewhere no more candidates spill than the known count (docs/NOTES.md item 51: until
# the parser was fixed the spills read 0, and a few mma.sync and CUDA-core candidates spill 4-36 bytes). A fresh
# database, so its kernel cache is empty: NVRTC compiles every candidate.
top_builddir=${top_builddir:-.}
bin="$top_builddir/dlbtune"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export DLBTUNE_DB="$tmp/db"
. "${top_srcdir:-.}/tests/lib.sh"
e32=$(sample 4) etc=40
[ "${DLB_CHECK_FULL:-0}" = 1 ] && etc=10 # the tensor-core spaces: every 10th, the sample whose spill count is known

# check LABEL MIN_COMPILED OUTPUT [MAX_SPILLING]: the summary line says at least MIN_COMPILED candidates
# compiled and none failed; at most MAX_SPILLING (default 0) candidates spill registers, none of them wgmma.
check() {
	maxsp=${4:-0}
	last=$(printf '%s\n' "$3" | tail -n 1)
	echo "$1: $last"
	n=$(echo "$last" | sed -n 's/^compiled \([0-9]*\) candidates.* for .*, \([0-9]*\) failed$/\1 \2/p')
	set -- "$1" "$2" "$3" $n
	if [ -z "$n" ] || [ "$4" -lt "$2" ] || [ "$5" -ne 0 ]; then
		echo "FAIL: $1: $last"
		fail=1
	fi
	spills=$(printf '%s\n' "$3" | grep -E '[1-9][0-9]* B spill st|/[1-9][0-9]* B ld')
	nsp=$(printf '%s\n' "$spills" | grep -c 'regs')
	nwg=$(printf '%s\n' "$spills" | grep -c 'KIND=1 ')
	echo "$1: $nsp candidates spill registers (known: at most $maxsp), $nwg of them wgmma"
	if [ "$nsp" -gt "$maxsp" ] || [ "$nwg" -gt 0 ]; then
		echo "FAIL: $1: candidates spill registers:"
		printf '%s\n' "$spills" | cut -c1-200
		fail=1
	fi
}

ms() { echo $(($(date +%s%N) / 1000000)); }
for arch in sm_80 sm_90a; do
	progress "compile_all: the fp32 GEMM space for $arch (every ${e32}th; a few minutes on 2 cores)"
	t0=$(ms)
	# sm_90a: one candidate spills 4 bytes (BM=32 BN=64 BK=32 TM=4 TN=8, TT)
	check "fp32 $arch" 100 "$("$bin" compile --op gemm --arch "$arch" --every $e32 -v 2>&1)" $([ $arch = sm_90a ] && echo 1 || echo 0)
	first_ms=$(($(ms) - t0))
done
# The same space again: every candidate from the kernel cache, no NVRTC call, in under 10% of the time.
t0=$(ms)
again=$("$bin" compile --op gemm --arch sm_90a --every $e32 2>&1)
again_ms=$(($(ms) - t0))
echo "fp32 sm_90a again: $(printf '%s\n' "$again" | grep 'kernel cache'); $again_ms ms against $first_ms ms"
printf '%s\n' "$again" | grep -q "^gemm fp32: [0-9]* read from the kernel cache, 0 compiled by NVRTC" ||
	{ echo "FAIL: the second compile called NVRTC"; fail=1; }
[ $((again_ms * 10)) -lt "$first_ms" ] || { echo "FAIL: the second compile took $again_ms ms of $first_ms"; fail=1; }
# The tensor-core spaces (fp16, int8: about 300 candidates each, several seconds apiece on 2 cores):
# every 40th (10th under `make check-full`) candidate of each kernel family, for sm_90a, where all three families exist.
for prec in fp16 int8; do
	progress "compile_all: GEMM $prec for sm_90a, every ${etc}th candidate"
	out=$("$bin" compile --op gemm --prec "$prec" --arch sm_90a --every $etc -v 2>&1)
	# int8: 6 mma.sync (KIND=0) candidates of the sample spill 4-36 bytes
	check "$prec sm_90a, every ${etc}th" 20 "$out" $([ $prec = int8 ] && echo 6 || echo 0)
	for kind in 0 1 2; do
		if ! printf '%s\n' "$out" | grep -q "KIND=$kind .* regs"; then
			echo "FAIL: $prec: no compiled candidate of KIND=$kind in the sample"
			fail=1
		fi
	done
done
exit $fail
