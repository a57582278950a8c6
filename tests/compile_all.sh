#!/bin/sh
# compile_all: every candidate of the fp32 GEMM space compiles with NVRTC for sm_80 and sm_90a, and a
# sample of each tensor-core family for sm_90a (no GPU needed), with no register spills.
top_builddir=${top_builddir:-.}
bin="$top_builddir/dlbtune"
fail=0
for arch in sm_80 sm_90a; do
	out=$("$bin" compile --op gemm --arch "$arch" -v 2>&1)
	last=$(printf '%s\n' "$out" | tail -n 1)
	echo "$last"
	n=$(echo "$last" | sed -n 's/^compiled \([0-9]*\) candidates for .*, \([0-9]*\) failed$/\1 \2/p')
	set -- $n
	if [ -z "$n" ] || [ "$1" -lt 100 ] || [ "$2" -ne 0 ]; then
		echo "FAIL: $arch: $last"
		fail=1
	fi
	spills=$(printf '%s\n' "$out" | grep -c -E '[1-9][0-9]* B spill st|/[1-9][0-9]* B ld')
	if [ "$spills" -ne 0 ]; then
		echo "FAIL: $arch: $spills candidates spill registers"
		fail=1
	fi
done
# The tensor-core spaces (fp16, int8: about 300 candidates each, several seconds apiece on 2 cores):
# every 10th candidate of each kernel family, for sm_90a, where all three families exist.
for prec in fp16 int8; do
	out=$("$bin" compile --op gemm --prec "$prec" --arch sm_90a --every 10 -v 2>&1)
	last=$(printf '%s\n' "$out" | tail -n 1)
	echo "$prec: $last"
	n=$(echo "$last" | sed -n 's/^compiled \([0-9]*\) candidates (every 10th) for .*, \([0-9]*\) failed$/\1 \2/p')
	set -- $n
	if [ -z "$n" ] || [ "$1" -lt 20 ] || [ "$2" -ne 0 ]; then
		echo "FAIL: $prec: $last"
		fail=1
	fi
	for kind in 0 1 2; do
		if ! printf '%s\n' "$out" | grep -q "KIND=$kind .* regs"; then
			echo "FAIL: $prec: no compiled candidate of KIND=$kind in the sample"
			fail=1
		fi
	done
	spills=$(printf '%s\n' "$out" | grep -c -E '[1-9][0-9]* B spill st|/[1-9][0-9]* B ld')
	if [ "$spills" -ne 0 ]; then
		echo "FAIL: $prec: $spills candidates spill registers"
		printf '%s\n' "$out" | grep -E '[1-9][0-9]* B spill st|/[1-9][0-9]* B ld' | cut -c1-200
		fail=1
	fi
done
exit $fail
