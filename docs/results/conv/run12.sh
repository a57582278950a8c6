#!/bin/bash
# Device call 12 for convolution (issue 28): NCHW fp16 problems with C % 8 == 0 run the cp.async kernel after
# copying x and w to NHWC and KRSC inside the timed launch (specialisation NCHW8, kernel to_nhwc). gpu_conv in
# fp32 and fp16 (one more NCHW row); DeepBench's conv_inference_server in fp16 NCHW, as DeepBench ran it
# (run07: 0.46x with the register-staged kernel); the first 200 s of conv_training fp16 NCHW.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
fail=0
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_conv.sh >/tmp/g.log 2>&1
rc=$?; [ $rc = 0 ] || fail=1
echo "== gpu_conv: exit $rc in $(( $(date +%s) - s )) s"; grep -E "FAIL|passed|failed| ok, " /tmp/g.log | cut -c1-160 | tail -30
geo() { sed 's/"[^"]*"/x/g' $1 | awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next}{n++; s+=log($c["paired_speedup"]); w+=$c["paired_speedup"]>=1; bad+=$c["verified"]!=1} END{if(n) printf "rows %d paired geomean %.3f won %d unverified %d\n", n, exp(s/n), w, bad}'; }
s=$(date +%s)
timeout -s INT -k 10 240 ./dlbtune --op conv --prec fp16 --suite inference_server --db /tmp/c1 -v --csv >$OUT/inf16.csv 2>$OUT/inf16.err
echo "== conv_inference_server fp16 NCHW: exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|error|warning" $OUT/inf16.err | cut -c1-220 | head
geo $OUT/inf16.csv
s=$(date +%s)
timeout -s INT -k 10 200 ./dlbtune --op conv --prec fp16 --db /tmp/c1 -v --csv >$OUT/train16.csv 2>$OUT/train16.err
echo "== conv_training fp16 NCHW (200 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|error|warning" $OUT/train16.err | cut -c1-220 | head
geo $OUT/train16.csv
test $fail = 0 && echo "conv run12: all passed"
