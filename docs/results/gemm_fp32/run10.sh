#!/bin/bash
# Device call 10 for issue 30: 3xTF32 with each k-tile summed apart and added by the CUDA cores (run09: the
# tensor cores' truncating accumulation put 115 of 1620 runs over fp32's tolerance), MI*BN <= 128. The family (KIND 1: gemm_wgmma.cu in TF32 on split3's copies). Every
# KIND 1 candidate verified on tests/gpu_gemm_verify's fp32 shapes (those with N > 16), all layouts, every
# split-K variant; then a few shapes tuned with the 3xTF32 family alone (--only family:3xTF32) against the
# strict-fp32 vendor best, and the same shapes with the full space.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY="KIND=1" timeout 200 tests/gpu_gemm_verify fp32 2>&1 | grep -vE "^ok|^  ok" | tail -12
echo "== verify $(( $(date +%s) - t0 )) s"
printf 'm,n,k,a_t,b_t\n4096,4096,4096,0,0\n2048,2048,2048,1,0\n5124,9124,2560,0,0\n1760,128,1760,0,0\n2560,64,2560,0,1\n35,8457,4096,0,0\n' > /tmp/big.csv
timeout -s INT -k 10 150 ./dlbtune --op gemm --prec fp32 --suite /tmp/big.csv --db /tmp/db10 --only family:3xTF32 \
	--csv > $OUT/tf32x3.csv 2> $OUT/tf32x3.err; echo "tune exit $?"
grep -E "^\[|error" $OUT/tf32x3.err | cut -c1-220
echo "== total $(( $(date +%s) - t0 )) s"
