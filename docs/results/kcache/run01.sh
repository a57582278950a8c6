#!/bin/bash
# Device call 1 for the kernel cache (issue 27): the GPU tests still pass with candidates compiled on
# demand; then, on a fresh database, one new fp16 shape, a second new shape, and the first again with
# --retune (its kernels now cached). Log in $OUT/log.txt.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nproc; fail=0
for t in tests/gpu_faults tests/gpu_tune_cache.sh tests/toy/toy_op.sh; do
	s=$(date +%s)
	DLB_REQUIRE_GPU=1 DLBTUNE_DB=/tmp/tdb timeout -k 5 150 ./$t >/tmp/t.log 2>&1
	rc=$?
	[ $rc = 124 ] && { ps -ef --forest | grep -v " \[" | tail -20; for p in $(pgrep -f "$t"); do cat /proc/$p/wchan; echo " $p"; done; }
	[ $rc = 0 ] || fail=1
	echo "== $t: exit $rc in $(( $(date +%s) - s )) s"
	grep -E "^gpu_|passed|failed|FAIL|WRONG|ERROR|toy_op:|kernels:" /tmp/t.log | tail -8
	[ $rc = 0 ] || tail -30 /tmp/t.log
done
run() { # label, then dlbtune's arguments
	l=$1; shift
	s=$(date +%s%N)
	timeout -k 5 200 ./dlbtune "$@" -v >$OUT/$l.txt 2>/tmp/$l.err
	rc=$?
	[ $rc = 124 ] && { ps -ef --forest | grep -v " \[" | tail -20; tail -20 /tmp/$l.err; }
	[ $rc = 0 ] || fail=1
	echo "== $l: dlbtune $*: exit $rc, wall $(( ($(date +%s%N) - s) / 1000000 )) ms"
	grep -E "candidates for|kernels:|stopped:|side by side|us, vendor best|waiting|error|warning" /tmp/$l.err | cut -c1-300
	cat $OUT/$l.txt
}
run a --op gemm --prec fp16 --m 35 --n 700 --k 2048 --db /tmp/k1
run b --op gemm --prec fp16 --m 5124 --n 700 --k 2048 --db /tmp/k1
run a2 --op gemm --prec fp16 --m 35 --n 700 --k 2048 --db /tmp/k1 --retune
./dlbtune db stats --db /tmp/k1 | head -20
du -sh /tmp/k1 /tmp/k1/kernels
test $fail = 0 && echo "run01: all passed"
