#!/bin/bash
# Device call 47 (sparse, issue 29): the session's final build (KIND 3 left out where its copies would pass 4 GB;
# comments): gpu_spmm once more.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|ok, |data:" $OUT/gspmm.log | cut -c1-200 | tail -30
