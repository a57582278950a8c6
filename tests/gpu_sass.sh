#!/bin/sh
# gpu_sass: tests/sass_ops' opcode table against NVIDIA's disassembler, where there is one (the GPU machine
# has nvdisasm; our CPU machines do not: exit 77 there). For a sample of cubins of each tensor-core family
# (conv fp16, conv fp32 with its 3xTF32 wgmma cubins; GEMM fp16 and int8, mma.sync and wgmma; GEMM fp32's
# 3xTF32 ones, all of them), the number of HMMA, IMMA, HGMMA, IGMMA, ACQBULK, LDG and STG
# instructions nvdisasm prints must equal sass_ops' counts.
top_builddir=${top_builddir:-.}
bin="$top_builddir/dlbtune"
ops="$top_builddir/tests/sass_ops"
dis=$(command -v nvdisasm || ls /usr/local/cuda/bin/nvdisasm 2>/dev/null)
[ -n "$dis" ] || { echo "gpu_sass: skipped: no nvdisasm"; [ -n "$DLB_REQUIRE_GPU" ] && exit 99; exit 77; }
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export DLBTUNE_DB="$tmp/db"
for prec in fp16 fp32; do
	"$bin" compile --op conv --prec $prec --arch sm_90a --every 40 --emit "$tmp/e" >/dev/null 2>&1 || { echo "FAIL: compile conv $prec"; fail=1; }
done
for prec in fp16 int8; do
	"$bin" compile --op gemm --prec $prec --arch sm_90a --every 60 --emit "$tmp/e" >/dev/null 2>&1 || { echo "FAIL: compile gemm $prec"; fail=1; }
done
# fp32's 3xTF32 GEMM kernels, every one: wgmma from shared memory, and (ASPLIT 1) with A from registers
"$bin" compile --op gemm --prec fp32 --arch sm_90a --only 'family:3xTF32' --emit "$tmp/e" >/dev/null 2>&1 ||
	{ echo "FAIL: compile gemm fp32 3xTF32"; fail=1; }
n=0
for f in "$tmp"/e/*/*.cubin; do
	"$dis" "$f" >"$tmp/d.txt" 2>&1 || { echo "FAIL: nvdisasm $(basename "$f")"; fail=1; continue; }
	for name in HMMA IMMA HGMMA IGMMA ACQBULK LDG STG; do
		theirs=$(grep -cE "^[^;]*[ }]$name[. ]" "$tmp/d.txt")
		ours=$("$ops" "$f" | awk -v n="$name" '{ for (i = 3; i <= NF; i++) if (index($i, n "=") == 1) s += substr($i, length(n) + 2) } END { print s + 0 }')
		[ "$theirs" = "$ours" ] || { echo "FAIL: $(basename "$f"): $name: nvdisasm $theirs, sass_ops $ours"; fail=1; }
	done
	n=$((n + 1))
done
echo "gpu_sass: $n cubins, sass_ops agrees with nvdisasm on each: $([ $fail = 0 ] && echo yes || echo no)"
exit $fail
