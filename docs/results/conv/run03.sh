#!/bin/bash
# Device call 3 for convolution (issue 28): cuDNN's default-math (TF32) time shown beside the strict-fp32
# baselines, the algorithm names in the table. gpu_conv again; the four rows (CSV, then the text table from the
# database); then DeepBench's conv_training suite in fp32 NCHW (interrupted at 400 s: the rows done are kept).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nproc; fail=0
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_conv.sh >/tmp/g.log 2>&1
rc=$?; [ $rc = 0 ] || fail=1
echo "== gpu_conv: exit $rc in $(( $(date +%s) - s )) s"; tail -3 /tmp/g.log
printf 'w,h,c,n,k,s,r,pad_w,pad_h,stride_w,stride_h,order\n700,161,1,1,32,20,5,0,0,2,2,NCHW\n56,56,256,1,128,1,1,0,0,2,2,NCHW\n7,7,832,1,256,1,1,0,0,1,1,NHWC\n28,28,128,8,128,3,3,1,1,1,1,NHWC\n' >/tmp/four.csv
s=$(date +%s)
timeout -s INT -k 10 120 ./dlbtune --op conv --suite /tmp/four.csv --db /tmp/c1 -v --csv >$OUT/four.csv 2>$OUT/four.err
rc=$?; [ $rc = 0 ] || fail=1
echo "== four rows: exit $rc in $(( $(date +%s) - s )) s"
grep -E "us, vendor best|side by side with|error|warning" $OUT/four.err | cut -c1-220
./dlbtune --op conv --suite /tmp/four.csv --db /tmp/c1 2>&1 | cut -c1-400
s=$(date +%s)
timeout -s INT -k 10 400 ./dlbtune --op conv --suite training --db /tmp/c2 -v --csv >$OUT/train.csv 2>$OUT/train.err
echo "== conv_training fp32: exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|error|warning" $OUT/train.err | cut -c1-220
test $fail = 0 && echo "conv run03: all passed"
