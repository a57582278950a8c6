#!/bin/bash
# Device call 1 for the op seam (issue 26), on one GPU: (a) a database made by the previous build (76f167f,
# carried as .gpu/old/dlbtune) answers the same suite from the cache under this build, with no GPU work;
# (b) `make check-gpu`'s tests, run directly (make would rebuild): gpu_faults, gpu_tune_cache.sh, the toy op
# end to end (tests/toy/toy_op.sh), gpu_gemm_verify fp32. Logs in $OUT/log.txt, CSVs beside it.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
./dlbtune devices
printf 'm,n,k,a_t,b_t\n1760,16,1760,0,0\n35,700,2048,1,0\n512,512,512,0,1\n' >/tmp/s.csv
s=$(date +%s)
.gpu/old/dlbtune --op gemm --suite /tmp/s.csv --db /tmp/olddb --csv >$OUT/old_build.csv 2>/tmp/old.err
echo "== previous build tunes 3 fp32 problems into a fresh database: exit $? in $(( $(date +%s) - s )) s"
tail -3 /tmp/old.err
s=$(date +%s)
./dlbtune --op gemm --suite /tmp/s.csv --db /tmp/olddb --csv -v >$OUT/this_build.csv 2>/tmp/new.err
echo "== this build, the same suite, the same database: exit $? in $(( $(date +%s) - s )) s"
grep -E "answered from the database|kernel launches|compil" /tmp/new.err
./dlbtune db list --db /tmp/olddb
fail=0
for t in tests/gpu_faults tests/gpu_tune_cache.sh tests/toy/toy_op.sh "tests/gpu_gemm_verify fp32"; do
	s=$(date +%s)
	DLB_REQUIRE_GPU=1 ./$t >/tmp/t.log 2>&1
	rc=$?
	[ $rc = 0 ] || fail=1
	echo "== $t: exit $rc in $(( $(date +%s) - s )) s"
	grep -E "^gpu_|passed|failed|FAIL|WRONG|ERROR|toy_op:|GB/s|rowsum fp32|geomean" /tmp/t.log | tail -14
	[ $rc = 0 ] || tail -30 /tmp/t.log
done
test $fail = 0 && echo "check-gpu (fp32 verify): all passed"
