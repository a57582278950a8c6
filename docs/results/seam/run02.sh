#!/bin/bash
# Device call 2 for the op seam (issue 26): gpu_tune_cache.sh again (fixed after run01), then gpu_gemm_verify
# on the tensor-core precisions (fp16, int8): the rest of `make check-gpu` (run01.sh has the others).
# Log in $OUT/log.txt.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
fail=0
s=$(date +%s)
DLB_REQUIRE_GPU=1 ./tests/gpu_tune_cache.sh >/tmp/t.log 2>&1
rc=$?
[ $rc = 0 ] || fail=1
echo "== gpu_tune_cache.sh: exit $rc in $(( $(date +%s) - s )) s"
cat /tmp/t.log
for p in fp16 int8; do
	s=$(date +%s)
	DLB_REQUIRE_GPU=1 ./tests/gpu_gemm_verify $p >/tmp/t.log 2>&1
	rc=$?
	[ $rc = 0 ] || fail=1
	echo "== gpu_gemm_verify $p: exit $rc in $(( $(date +%s) - s )) s"
	grep -E "^gpu_|WRONG|ERROR" /tmp/t.log | tail -6
done
test $fail = 0 && echo "gpu_tune_cache, gpu_gemm_verify fp16 int8: passed"
