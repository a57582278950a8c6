#!/bin/bash
# Device call 9 for convolution (issue 28): the fp16 cp.async kernel (templates/conv_fp16.cu VEC: NHWC with C
# a multiple of 8, 16-byte copies, STAGES in flight, ldmatrix). gpu_conv in fp32 and fp16 (every candidate
# and split on the awkward shapes, now with two more NHWC rows for it), then DeepBench's
# conv_inference_server in fp16 NHWC against cuDNN's fp16 NHWC algorithms.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
fail=0
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_conv.sh >/tmp/g.log 2>&1
rc=$?; [ $rc = 0 ] || fail=1
echo "== gpu_conv: exit $rc in $(( $(date +%s) - s )) s"; grep -E "FAIL|passed|failed| ok, " /tmp/g.log | cut -c1-160 | tail -30
s=$(date +%s)
timeout -s INT -k 10 300 ./dlbtune --op conv --prec fp16 --layout nhwc --suite inference_server --db /tmp/c1 -v --csv >$OUT/inf16.csv 2>$OUT/inf16.err
echo "== conv_inference_server fp16 NHWC: exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|error|warning" $OUT/inf16.err | cut -c1-220 | head
grep -E "us, vendor best" $OUT/inf16.err | cut -c1-200
sed 's/"[^"]*"/x/g' $OUT/inf16.csv | awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}{n++; s+=log($c["paired_speedup"]); w+=$c["paired_speedup"]>=1; bad+=$c["verified"]!=1} END{if(n) printf "rows %d paired geomean %.3f won %d unverified %d\n", n, exp(s/n), w, bad}'
test $fail = 0 && echo "conv run09: all passed"
