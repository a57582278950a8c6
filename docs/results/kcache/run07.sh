#!/bin/bash
# Device call 7 for the kernel cache (issue 27), the final build (the search's clock is wall time again): a
# fresh database with two new fp16 shapes and a --retune, then DeepBench's fp16 gemm_inference_server suite
# from a cold kernel cache (fresh database /tmp/s1).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nproc; fail=0
run() { # label, limit, then dlbtune's arguments
	l=$1 lim=$2; shift 2
	s=$(date +%s%N)
	timeout -s INT -k 10 $lim ./dlbtune "$@" -v >$OUT/$l.txt 2>$OUT/$l.err
	rc=$?
	[ $rc = 0 ] || fail=1
	echo "== $l: dlbtune $*: exit $rc, wall $(( ($(date +%s%N) - s) / 1000000 )) ms"
	grep -E "candidates for|kernels:|stopped:|side by side|us, vendor best|error|warning|fresh worker|geomean" $OUT/$l.err | cut -c1-250 | tail -9
}
run a 60 --op gemm --prec fp16 --m 35 --n 700 --k 2048 --db /tmp/k1
run b 60 --op gemm --prec fp16 --m 5124 --n 700 --k 2048 --db /tmp/k1
run a2 60 --op gemm --prec fp16 --m 35 --n 700 --k 2048 --db /tmp/k1 --retune
run suite_cold 440 --op gemm --prec fp16 --suite inference_server --db /tmp/s1 --csv
./dlbtune db stats --db /tmp/s1 | grep -E "^(best|kernels)"
test $fail = 0 && echo "run07: all passed"
