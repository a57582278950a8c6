#!/bin/bash
# Device call (nvidia-h100-x1): the resident A (gemm_wgmma.cu AR, NOTES item 37). Verify every candidate that
# can take it on all of gpu_gemm_verify's shapes; compute-sanitizer memcheck on two of them; then the M = 35
# rows (m35.csv) tuned by this build (./dlbtune) and, if carried, by the previous one (./dlbtune.old), fresh
# databases, in the order given by ORDER (default: new old).
. .gpu/env.sh
export DLB_REQUIRE_GPU=1 top_builddir=. top_srcdir=.
if [ -z "$NOVERIFY" ]; then
s=$(date +%s)
DLB_VERIFY_ONLY="KIND=1 WGS=1 KS=1 PERSIST=0 CLK=0 TMA=1|KIND=1 WGS=1 KS=1 PERSIST=0 CLK=1 TMA=1" \
  ./tests/gpu_gemm_verify fp16 >$OUT/verify_ar.log 2>&1
echo "gpu_gemm_verify, the candidates that can take a resident A: exit $? in $(( $(date +%s) - s )) s"; tail -3 $OUT/verify_ar.log
for cfg in "BM=64 BN=32 BK=64 WM=64 WN=64 STAGES=12 KIND=1 WGS=1 KS=1 PERSIST=0 CLK=1 TMA=1" \
           "BM=64 BN=128 BK=64 WM=64 WN=64 STAGES=8 KIND=1 WGS=1 KS=1 PERSIST=0 CLK=0 TMA=1"; do
  for sh in 35x64x2056 1x33x136 63x40x200 35x700x2048; do
    echo "memcheck $sh $cfg: $(DLB_VERIFY_ONLY="$cfg" DLB_VERIFY_SHAPE=$sh compute-sanitizer --tool memcheck \
      ./tests/gpu_gemm_verify fp16 2>&1 | grep -E 'ERROR SUMMARY|gpu_gemm_verify:' | tr '\n' ' ')"
  done
done
fi
for b in ${ORDER:-new old}; do
  bin=./dlbtune; [ $b = old ] && bin=./dlbtune.old
  [ -x $bin ] || continue
  s=$(date +%s)
  timeout -s INT ${TLIMIT:-250} $bin --op gemm --prec fp16 --suite docs/results/h100/m35.csv --db /tmp/db_m35_$b -v --csv >$OUT/m35_$b.csv 2>$OUT/m35_$b.err
  echo "tune m35 with $bin: exit $? in $(( $(date +%s) - s )) s"
  awk -F, '{print $1, $2, $3, $4, $6, $7, $14, $15, $16, $(NF-4), $(NF-3), $(NF-2), $(NF-1), $NF}' $OUT/m35_$b.csv
done
