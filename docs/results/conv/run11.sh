#!/bin/bash
# Device call 11 for convolution (issue 28): the kernels' shared part moved to templates/conv_common.cu
# (pixel table, output index, split-K finish) and fp16's epilogue became one function: gpu_conv in fp32 and
# fp16 again. tests/sass_ops' opcode table (HMMA, IMMA, HGMMA, IGMMA) against nvdisasm, which this machine
# has (tests/gpu_sass.sh).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
fail=0
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
/usr/local/cuda/bin/nvdisasm --version | tail -2
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 120 ./tests/gpu_sass.sh >/tmp/s.log 2>&1
rc=$?; [ $rc = 0 ] || fail=1
echo "== gpu_sass: exit $rc in $(( $(date +%s) - s )) s"; tail -5 /tmp/s.log
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_conv.sh >/tmp/g.log 2>&1
rc=$?; [ $rc = 0 ] || fail=1
echo "== gpu_conv: exit $rc in $(( $(date +%s) - s )) s"; grep -E "FAIL|passed|failed| ok, " /tmp/g.log | cut -c1-160 | tail -30
test $fail = 0 && echo "conv run11: all passed"
