#!/bin/bash
# Device call 3 for the kernel cache (issue 27): the kernel layout per configuration (wgmma repacks),
# a sample of every family verified in all four layouts; a fresh database with two new fp16 shapes; then
# the first again with --retune under strace (does the parent touch the driver before a worker restart?).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nproc; nvidia-smi --query-gpu=name,compute_mode,persistence_mode --format=csv,noheader; fail=0
s=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_EVERY=8 timeout -k 5 240 ./tests/gpu_gemm_verify fp32 fp16 int8 >/tmp/v.log 2>&1
rc=$?; [ $rc = 0 ] || fail=1
echo "== gpu_gemm_verify (every 8th configuration, 4 layouts): exit $rc in $(( $(date +%s) - s )) s"
grep -E "^gpu_gemm_verify|WRONG|ERROR|load " /tmp/v.log | head -12
run() { # label, then dlbtune's arguments
	l=$1; shift
	s=$(date +%s%N)
	timeout -k 5 200 ./dlbtune "$@" -v >$OUT/$l.txt 2>$OUT/$l.err
	rc=$?
	[ $rc = 0 ] || fail=1
	echo "== $l: dlbtune $*: exit $rc, wall $(( ($(date +%s%N) - s) / 1000000 )) ms"
	grep -E "candidates for|kernels:|stopped:|side by side|us, vendor best|waiting|error|warning|fresh worker" $OUT/$l.err | cut -c1-250 | tail -12
}
run a --op gemm --prec fp16 --m 35 --n 700 --k 2048 --db /tmp/k1
run b --op gemm --prec fp16 --m 5124 --n 700 --k 2048 --db /tmp/k1
s=$(date +%s%N)
strace -f -qq -o /tmp/a2.st -e trace=openat,clone,clone3,fork,vfork,kill,exit_group \
	timeout -k 5 200 ./dlbtune --op gemm --prec fp16 --m 35 --n 700 --k 2048 --db /tmp/k1 --retune -v >$OUT/a2.txt 2>$OUT/a2.err
echo "== a2 (strace): exit $?, wall $(( ($(date +%s%N) - s) / 1000000 )) ms"
grep -E "kernels:|stopped:|us, vendor best|error|fresh worker" $OUT/a2.err | cut -c1-250 | tail -8
parent=$(head -1 /tmp/a2.st | cut -d' ' -f1)
echo "parent $parent: driver files it opened:"; grep "^$parent " /tmp/a2.st | grep -E "nvidia|libcuda" | cut -c1-160 | head
echo "children: $(grep "^$parent " /tmp/a2.st | grep -cE "clone|fork")"
for p in $(grep -E "^$parent .*clone" /tmp/a2.st | grep -oE "= [0-9]+$" | cut -d' ' -f2); do
	echo "child $p: $(grep -c "^$p .*nvidia" /tmp/a2.st) nvidia opens, first: $(grep "^$p .*openat.*nvidia" /tmp/a2.st | head -1 | cut -c1-120)"
done | head -20
gzip -c /tmp/a2.st >$OUT/a2.st.gz
./dlbtune db stats --db /tmp/k1 | grep -E "^(trials|best|kernels)"
test $fail = 0 && echo "run03: all passed"
