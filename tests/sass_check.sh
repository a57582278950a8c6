#!/bin/sh
# sass_check: the tensor-core kernels contain the matrix instructions they were written for, read from their
# SASS by tests/sass_ops (no disassembler, no GPU): every sampled fp16 convolution candidate, in each of its
# source specialisations (NCHW, NHWC, NHWC8, NCHW8 and the 1x1 ones), has HMMA (KIND=0, 3 and 4) or HGMMA (KIND=1, 2 and 5) in the kernel it runs, every sampled int8 one IMMA;
# the fp32 ones HGMMA in their 3xTF32 wgmma kernels (KIND=1 and 2), HMMA in their direct ones (KIND=3, 3xTF32 on
# mma.sync) and no matrix instruction in their FFMA ones; GEMM's mma.sync candidates (KIND=0) have HMMA (fp16) or IMMA (int8), its wgmma ones
# (KIND=1) HGMMA or IGMMA, and fp32's 3xTF32 ones (KIND=1) HGMMA; spmm fp16's tensor-core candidates (KIND=5) HMMA.
# The kernels launched as programmatic dependents (conv's, conv_reduce, GEMM fp32's FFMA ones) wait before they
# touch global memory. tests/gpu_sass.sh checks sass_ops' opcodes against nvdisasm where there is one.
top_builddir=${top_builddir:-.}
bin="$top_builddir/dlbtune"
ops="$top_builddir/tests/sass_ops"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export DLBTUNE_DB="$tmp/db"
. "${top_srcdir:-.}/tests/lib.sh"
progress "sass_check: compiling samples of conv and GEMM for sm_90a and reading their SASS (minutes on 2 cores)"

# COUNT FILE KERNEL NAME: NAME's count in KERNEL of FILE ("" when the kernel is not there)
count() { "$ops" "$1" | awk -v k="$2" -v n="$3" '$2 == k { for (i = 3; i <= NF; i++) if (index($i, n "=") == 1) print substr($i, length(n) + 2) }'; }
# WAITS_FIRST FILE KERNEL...: each KERNEL of FILE that is there (a programmatic dependent launch on sm_90) has an
# ACQBULK (griddepcontrol.wait) before its first global-memory access in the code's layout; prints the failures
waits_first() {
	f=$1
	shift
	for k in "$@"; do
		"$ops" "$f" | awk -v k="$k" -v f="$(basename "$f")" '$2 == k {
			for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] + 0 }
			if (v["wait_at"] < 0 || (v["global_at"] >= 0 && v["global_at"] < v["wait_at"]))
				printf "FAIL: %s: %s is a dependent launch but touches global memory (instruction %d) before its ACQBULK (%d)\n", f, k, v["global_at"], v["wait_at"] }'
	done
}
# SUM FILE NAME: NAME's count over every kernel of FILE
sum() { "$ops" "$1" | awk -v n="$2" '{ for (i = 3; i <= NF; i++) if (index($i, n "=") == 1) s += substr($i, length(n) + 2) } END { print s + 0 }'; }

"$bin" compile --op conv --prec fp16 --arch sm_90a --every 20 --emit "$tmp/e" >"$tmp/log" 2>&1 || { echo "FAIL: compile conv fp16"; tail -3 "$tmp/log"; fail=1; }
"$bin" compile --op conv --prec fp32 --arch sm_90a --every 40 --emit "$tmp/e" >"$tmp/log" 2>&1 || { echo "FAIL: compile conv fp32"; tail -3 "$tmp/log"; fail=1; }
n=0 nw=0
for f in "$tmp"/e/fp16/*.cubin; do
	case $f in *_NCHW.sm_90a.cubin | *_NCHW8.sm_90a.cubin | *_NCHW8-1x1.sm_90a.cubin) k=conv_nchw ;; *) k=conv_nhwc ;; esac
	case $f in *_KIND-1_* | *_KIND-2_* | *_KIND-5_*) want=HGMMA nw=$((nw + 1)) ;; *) want=HMMA ;; esac
	c=$(count "$f" $k $want)
	[ "${c:-0}" -gt 0 ] || { echo "FAIL: $(basename "$f"): $k has no $want ($("$ops" "$f" | grep " $k "))"; fail=1; }
	n=$((n + 1))
done
[ $n -ge 10 ] && [ $nw -ge 1 ] || { echo "FAIL: only $n fp16 conv cubins, $nw of them wgmma"; fail=1; }
echo "conv fp16: $n cubins, HMMA in each mma.sync one, HGMMA in each of the $nw wgmma ones"
"$bin" compile --op conv --prec int8 --arch sm_90a --every 30 --emit "$tmp/e" >"$tmp/log" 2>&1 || { echo "FAIL: compile conv int8"; tail -3 "$tmp/log"; fail=1; }
n=0
for f in "$tmp"/e/int8/*.cubin; do
	case $f in *_NCHW4.sm_90a.cubin | *_NCHW16.sm_90a.cubin) k=conv_nchw ;; *) k=conv_nhwc ;; esac
	c=$(count "$f" $k IMMA)
	[ "${c:-0}" -gt 0 ] || { echo "FAIL: $(basename "$f"): $k has no IMMA ($("$ops" "$f" | grep " $k "))"; fail=1; }
	n=$((n + 1))
done
[ $n -ge 10 ] || { echo "FAIL: only $n int8 conv cubins"; fail=1; }
echo "conv int8: $n cubins, IMMA in each"
n=0 nw=0 nd=0
for f in "$tmp"/e/fp32/*.cubin; do
	case $f in *_NCHW.sm_90a.cubin | *_NCHW3xTF32.sm_90a.cubin | *_NCHW3xTF32-1x1.sm_90a.cubin | *_NCHW-1x1.sm_90a.cubin) k=conv_nchw ;; *) k=conv_nhwc ;; esac
	case $f in
	*_KIND-1_* | *_KIND-2_*) # 3xTF32: HGMMA
		c=$(count "$f" $k HGMMA) nw=$((nw + 1))
		[ "${c:-0}" -gt 0 ] || { echo "FAIL: $(basename "$f"): $k has no HGMMA ($("$ops" "$f" | grep " $k "))"; fail=1; } ;;
	*_KIND-3_*) # the direct kernel: 3xTF32 on mma.sync
		c=$(count "$f" $k HMMA) nd=$((nd + 1))
		[ "${c:-0}" -gt 0 ] || { echo "FAIL: $(basename "$f"): $k has no HMMA ($("$ops" "$f" | grep " $k "))"; fail=1; } ;;
	*) # FFMA: no matrix instruction
		c=$(($(sum "$f" HMMA) + $(sum "$f" HGMMA)))
		[ "$c" = 0 ] || { echo "FAIL: $(basename "$f"): fp32 FFMA with $c HMMA or HGMMA"; fail=1; } ;;
	esac
	n=$((n + 1))
done
[ $nw -ge 1 ] && [ $nd -ge 1 ] && [ $n -gt $((nw + nd)) ] || { echo "FAIL: $n fp32 conv cubins, $nw of them 3xTF32 wgmma, $nd direct"; fail=1; }
echo "conv fp32: $n cubins, HGMMA in each of the $nw 3xTF32 wgmma ones, HMMA in each of the $nd direct ones, no matrix instruction in the FFMA ones"

for prec in fp16 int8; do
	"$bin" compile --op gemm --prec $prec --arch sm_90a --every 60 --emit "$tmp/g" >"$tmp/log" 2>&1 ||
		{ echo "FAIL: compile gemm $prec"; tail -3 "$tmp/log"; fail=1; }
	if [ $prec = fp16 ]; then mma=HMMA gmma=HGMMA; else mma=IMMA gmma=IGMMA; fi
	for kind in 0 1; do
		[ $kind = 0 ] && want=$mma || want=$gmma
		n=0
		for f in "$tmp"/g/$prec/*_KIND-${kind}_*.cubin; do
			[ -f "$f" ] || continue
			c=$(sum "$f" $want)
			[ "$c" -gt 0 ] || { echo "FAIL: $(basename "$f"): no $want"; fail=1; }
			n=$((n + 1))
		done
		[ $n -ge 1 ] || { echo "FAIL: gemm $prec: no KIND=$kind cubin in the sample"; fail=1; }
		echo "gemm $prec KIND=$kind: $n cubins, $want in each"
	done
done

# GEMM fp32: HGMMA in gemm_tn of each 3xTF32 candidate (KIND=1, run as TN on its split copies), no matrix
# instruction in the FFMA tiles and skinny ones (KIND=0 and 2)
"$bin" compile --op gemm --prec fp32 --arch sm_90a --every 6 --emit "$tmp/f" >"$tmp/log" 2>&1 ||
	{ echo "FAIL: compile gemm fp32"; tail -3 "$tmp/log"; fail=1; }
n=0 nw=0
for f in "$tmp"/f/fp32/*.cubin; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	case $f in
	*_KIND-1_*)
		nw=$((nw + 1))
		c=$(count "$f" gemm_tn HGMMA)
		[ "${c:-0}" -gt 0 ] || { echo "FAIL: $(basename "$f"): gemm_tn has no HGMMA"; fail=1; } ;;
	*)
		for op in HGMMA HMMA; do
			[ "$(sum "$f" $op)" = 0 ] || { echo "FAIL: $(basename "$f"): $op in an FFMA candidate"; fail=1; }
		done ;;
	esac
done
[ $nw -ge 1 ] && [ $n -gt $nw ] || { echo "FAIL: $n fp32 gemm cubins, $nw of them 3xTF32"; fail=1; }
echo "gemm fp32: $n cubins, HGMMA in each of the $nw 3xTF32 ones, no matrix instruction in the FFMA ones"

# Programmatic dependent launches (sm_90): every convolution kernel and conv_reduce (conv.c's launch_conv), and
# GEMM fp32's FFMA tiles (KIND 0 and 3) and skinny kernels (gemm.c's gemm_launch), wait for the kernel before them
# (griddepcontrol.wait, SASS ACQBULK) before they first read or write global memory
n=0
for f in "$tmp"/e/*/*.cubin "$tmp"/f/fp32/*_KIND-0_*.cubin "$tmp"/f/fp32/*_KIND-2_*.cubin "$tmp"/f/fp32/*_KIND-3_*.cubin; do
	[ -f "$f" ] || continue
	bad=$(waits_first "$f" conv_nchw conv_nhwc conv_reduce gemm_nn gemm_nt gemm_tn gemm_tt)
	[ -z "$bad" ] || { printf '%s\n' "$bad"; fail=1; }
	n=$((n + 1))
done
[ $n -ge 40 ] || { echo "FAIL: only $n cubins with dependent launches"; fail=1; }
echo "dependent launches: $n conv and GEMM fp32 cubins, griddepcontrol.wait before the first global access in each"

# spmm fp16: HMMA in each KIND=5 and KIND=7 candidate (the tensor cores on A made dense, and on A's BSR blocks),
# none in the CUDA-core ones
"$bin" compile --op spmm --prec fp16 --arch sm_90a --every 8 --emit "$tmp/s" >"$tmp/log" 2>&1 ||
	{ echo "FAIL: compile spmm fp16"; tail -3 "$tmp/log"; fail=1; }
n=0 nt=0
for f in "$tmp"/s/fp16/*.cubin; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	case $f in
	*KIND-5_* | *KIND-7_*)
		nt=$((nt + 1))
		c=$(count "$f" spmm HMMA)
		[ "${c:-0}" -gt 0 ] || { echo "FAIL: $(basename "$f"): spmm has no HMMA"; fail=1; } ;;
	*)
		[ "$(sum "$f" HMMA)" = 0 ] || { echo "FAIL: $(basename "$f"): HMMA in a CUDA-core candidate"; fail=1; } ;;
	esac
done
[ $nt -ge 1 ] && [ $n -gt $nt ] || { echo "FAIL: $n spmm fp16 cubins, $nt of them KIND=5 or 7"; fail=1; }
echo "spmm fp16: $n cubins, HMMA in each of the $nt KIND=5 and 7 ones, no matrix instruction in the others"
exit $fail
