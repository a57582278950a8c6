#!/bin/sh
# compile_all: every candidate of the GEMM space compiles with NVRTC for sm_80 and sm_90a (no GPU needed),
# with no register spills.
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
exit $fail
