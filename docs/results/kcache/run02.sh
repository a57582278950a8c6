#!/bin/bash
# Device call 2 for the kernel cache (issue 27): one cubin per layout (the other layouts' kernels trap).
# A sample of every kernel family verified in all four layouts, the GPU tests, then on a fresh database
# one new fp16 shape, a second new shape, and the first again with --retune. Log in $OUT/log.txt.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nproc; fail=0
s=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_EVERY=8 timeout -k 5 200 ./tests/gpu_gemm_verify fp32 fp16 int8 >/tmp/v.log 2>&1
rc=$?; [ $rc = 0 ] || fail=1
echo "== gpu_gemm_verify (every 8th configuration, 4 layouts): exit $rc in $(( $(date +%s) - s )) s"
grep -E "^gpu_gemm_verify|WRONG|ERROR|load " /tmp/v.log | head -20
for t in tests/gpu_faults tests/gpu_tune_cache.sh tests/toy/toy_op.sh; do
	s=$(date +%s)
	DLB_REQUIRE_GPU=1 DLBTUNE_DB=/tmp/tdb timeout -k 5 150 ./$t >/tmp/t.log 2>&1
	rc=$?
	[ $rc = 0 ] || fail=1
	echo "== $t: exit $rc in $(( $(date +%s) - s )) s"
	grep -E "^gpu_|passed|failed|FAIL|WRONG|ERROR|toy_op:|kernels:" /tmp/t.log | tail -8
	[ $rc = 0 ] || tail -30 /tmp/t.log
done
run() { # label, then dlbtune's arguments
	l=$1; shift
	s=$(date +%s%N)
	timeout -k 5 200 ./dlbtune "$@" -v >$OUT/$l.txt 2>$OUT/$l.err
	rc=$?
	[ $rc = 0 ] || fail=1
	echo "== $l: dlbtune $*: exit $rc, wall $(( ($(date +%s%N) - s) / 1000000 )) ms"
	grep -E "candidates for|kernels:|stopped:|side by side|us, vendor best|waiting|error|warning|fresh worker" $OUT/$l.err | cut -c1-300
}
run a --op gemm --prec fp16 --m 35 --n 700 --k 2048 --db /tmp/k1
run b --op gemm --prec fp16 --m 5124 --n 700 --k 2048 --db /tmp/k1
run a2 --op gemm --prec fp16 --m 35 --n 700 --k 2048 --db /tmp/k1 --retune
./dlbtune db stats --db /tmp/k1 | grep -E "^(trials|best|kernels)"
du -sh /tmp/k1 /tmp/k1/kernels
test $fail = 0 && echo "run02: all passed"
