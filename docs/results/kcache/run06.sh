#!/bin/bash
# Device call 6 for the kernel cache (issue 27), on the build with the search clock that leaves out the wait
# for the compiler and the seeds judged with the worker's versions: run04 again (the fp16 sample, the two
# shapes, --retune, the cold suite); then run05.sh on the same machine for the warm suite.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nproc; fail=0
s=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_EVERY=8 timeout -k 5 150 ./tests/gpu_gemm_verify fp16 >/tmp/v.log 2>&1
rc=$?; [ $rc = 0 ] || fail=1
echo "== gpu_gemm_verify fp16 (every 8th configuration, 4 layouts): exit $rc in $(( $(date +%s) - s )) s"
grep -E "^gpu_gemm_verify|WRONG|ERROR|load " /tmp/v.log | head -8
run() { # label, limit, then dlbtune's arguments
	l=$1 lim=$2; shift 2
	s=$(date +%s%N)
	timeout -s INT -k 10 $lim ./dlbtune "$@" -v >$OUT/$l.txt 2>$OUT/$l.err
	rc=$?
	[ $rc = 0 ] || fail=1
	echo "== $l: dlbtune $*: exit $rc, wall $(( ($(date +%s%N) - s) / 1000000 )) ms"
	grep -E "candidates for|kernels:|stopped:|side by side|us, vendor best|error|warning|fresh worker|geomean" $OUT/$l.err | cut -c1-250 | tail -9
}
run a 100 --op gemm --prec fp16 --m 35 --n 700 --k 2048 --db /tmp/k1
run b 100 --op gemm --prec fp16 --m 5124 --n 700 --k 2048 --db /tmp/k1
run a2 100 --op gemm --prec fp16 --m 35 --n 700 --k 2048 --db /tmp/k1 --retune
run suite_cold 400 --op gemm --prec fp16 --suite inference_server --db /tmp/s1 --csv
./dlbtune db stats --db /tmp/s1 | grep -E "^(best|kernels)"
test $fail = 0 && echo "run06: all passed"
