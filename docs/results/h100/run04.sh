#!/bin/bash
# Device call (nvidia-h100-x1): `make check-gpu`'s tests on the final build, run directly (make would rebuild).
. .gpu/env.sh
export DLB_REQUIRE_GPU=1 top_builddir=. top_srcdir=.
fail=0
for t in tests/gpu_gemm_verify tests/gpu_faults tests/gpu_tune_cache.sh; do
  s=$(date +%s); n=$(basename $t .sh)
  ./$t >$OUT/$n.log 2>&1; rc=$?; [ $rc = 0 ] || fail=1
  echo "== $t: exit $rc in $(( $(date +%s) - s )) s"; grep -E "^gpu_|passed|FAIL|WRONG|ERROR" $OUT/$n.log | tail -4
done
test $fail = 0 && echo "check-gpu: all GPU tests passed"
