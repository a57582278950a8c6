#!/bin/bash
# Device call 7 for convolution (issue 28): the first fp16 kernel (templates/conv_fp16.cu, mma.sync m16n8k16,
# fp32 accumulation). gpu_conv in fp32 and fp16 (every candidate and split on the awkward shapes, both
# layouts), then DeepBench's conv_inference_server in fp16 (NCHW, as DeepBench ran it) against cuDNN's fp16
# tensor-op algorithms (interrupted at 170 s: the rows done are kept).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
fail=0
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 120 ./tests/gpu_conv.sh >/tmp/g.log 2>&1
rc=$?; [ $rc = 0 ] || fail=1
echo "== gpu_conv: exit $rc in $(( $(date +%s) - s )) s"; grep -E "FAIL|passed|failed|exhaustive" /tmp/g.log | cut -c1-160 | tail -24
s=$(date +%s)
timeout -s INT -k 10 170 ./dlbtune --op conv --prec fp16 --suite inference_server --db /tmp/c3 -v --csv >$OUT/inf16.csv 2>$OUT/inf16.err
echo "== conv_inference_server fp16: exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|error|warning" $OUT/inf16.err | cut -c1-220
grep -E "us, vendor best" $OUT/inf16.err | head -12 | cut -c1-220
test $fail = 0 && echo "conv run07: all passed"
