#!/bin/bash
# Device call 2 for convolution (issue 28), the double-buffered kernel with split-K: every fp32 candidate and split verified on the awkward shapes in both layouts
# (tests/gpu_conv.sh), then four DeepBench rows tuned against cuDNN (heuristic and cudnnFind, FMA math), in
# NCHW and NHWC, then DeepBench's conv_inference_server suite (fp32, NCHW). Log in $OUT/log.txt.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nproc; fail=0
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 300 ./tests/gpu_conv.sh >/tmp/g.log 2>&1
rc=$?; [ $rc = 0 ] || fail=1
echo "== gpu_conv: exit $rc in $(( $(date +%s) - s )) s"; tail -12 /tmp/g.log
printf 'w,h,c,n,k,s,r,pad_w,pad_h,stride_w,stride_h,order\n700,161,1,1,32,20,5,0,0,2,2,NCHW\n56,56,256,1,128,1,1,0,0,2,2,NCHW\n7,7,832,1,256,1,1,0,0,1,1,NHWC\n28,28,128,8,128,3,3,1,1,1,1,NHWC\n' >/tmp/four.csv
s=$(date +%s)
timeout -s INT -k 10 240 ./dlbtune --op conv --suite /tmp/four.csv --db /tmp/c1 -v --csv >$OUT/four.csv 2>$OUT/four.err
rc=$?; [ $rc = 0 ] || fail=1
echo "== four rows: exit $rc in $(( $(date +%s) - s )) s"
grep -E "us, vendor best|side by side with|error|warning|kernels:" $OUT/four.err | cut -c1-220

s=$(date +%s)
timeout -s INT -k 10 420 ./dlbtune --op conv --suite inference_server --db /tmp/c1 -v --csv >$OUT/inf.csv 2>$OUT/inf.err
echo "== conv_inference_server fp32: exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|geomean|error|warning" $OUT/inf.err | cut -c1-220
test $fail = 0 && echo "conv run02: all passed"
