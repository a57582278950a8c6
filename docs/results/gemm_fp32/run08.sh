#!/bin/bash
# NOTE: run with a local build whose skinny list had BM 8 (reverted: no BM 8 candidate won); logs/run08.
# Device call 8 for issue 30: skinny blocks of 8 rows (BM 8: 64 threads, KS 32) for the small N = 1 rows where
# run03's winners (BM 16, no split) filled 64 of 132 SMs and lost to cuBLAS's GEMV (1024x1x512 0.92x). The
# BM 8 candidates verified on every shape of tests/gpu_gemm_verify, then those rows tuned with the full fp32
# space (--min-search 2), as run03.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY="BM=8 " tests/gpu_gemm_verify fp32 2>&1 | grep -E "^(WRONG|ERROR)|runs over" | head -5
printf 'm,n,k,a_t,b_t\n1024,1,512,0,0\n512,1,512,0,0\n3072,1,1024,0,0\n512,2,512,0,0\n' > /tmp/small.csv
timeout -s INT -k 10 120 ./dlbtune --op gemm --prec fp32 --suite /tmp/small.csv --db /tmp/db8 --min-search 2 --csv \
	> $OUT/small.csv 2> $OUT/small.err; echo "tune exit $?"
grep "^\[" $OUT/small.err | cut -c1-200
echo "== total $(( $(date +%s) - t0 )) s"
