#!/bin/bash
# Device call 3 for the op seam (issue 26), after the GEMM twins were merged (one vendor runner for both GEMM
# ops, shared input sets, seeds and split-K workspace): gpu_faults, gpu_tune_cache.sh (fp32 vendor and paired
# path), the toy op end to end, gpu_gemm_verify fp32, and one int8 problem tuned end to end (the tensor-core
# ops' vendor, padding and paired timing), then answered again from the database. Log in $OUT/log.txt.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
fail=0
for t in tests/gpu_faults tests/gpu_tune_cache.sh tests/toy/toy_op.sh "tests/gpu_gemm_verify fp32"; do
	s=$(date +%s)
	DLB_REQUIRE_GPU=1 ./$t >/tmp/t.log 2>&1
	rc=$?
	[ $rc = 0 ] || fail=1
	echo "== $t: exit $rc in $(( $(date +%s) - s )) s"
	grep -E "^gpu_|passed|failed|FAIL|WRONG|ERROR|toy_op:" /tmp/t.log | tail -6
	[ $rc = 0 ] || tail -30 /tmp/t.log
done
s=$(date +%s)
./dlbtune --op gemm --prec int8 --m 35 --n 700 --k 2048 --ta 1 --db /tmp/i8 -v >$OUT/int8.txt 2>/tmp/i8.err
rc=$?
[ $rc = 0 ] || fail=1
echo "== int8 35x700x2048 TN tuned: exit $rc in $(( $(date +%s) - s )) s"
grep -E "side by side|stream floor|compiled" /tmp/i8.err | tail -4
cat $OUT/int8.txt
./dlbtune --op gemm --prec int8 --m 35 --n 700 --k 2048 --ta 1 --db /tmp/i8 -v >/dev/null 2>/tmp/i8b.err || fail=1
grep -E "answered from the database|kernel launches" /tmp/i8b.err
grep -q "1 of 1 problems answered from the database" /tmp/i8b.err || fail=1
test $fail = 0 && echo "run03: all passed"
