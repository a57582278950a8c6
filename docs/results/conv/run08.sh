#!/bin/bash
# Device call 8 for convolution (issue 28): the review's revision of the stream hold (ffc387d: a sample whose
# hold timed out is retried unheld, warm-ups unheld, the gate released on error paths) had not run on a GPU.
# Checks: gpu_faults; gpu_conv in fp32 and fp16 (every candidate and split on the awkward shapes, both
# layouts); the first 150 s of DeepBench's conv_inference_server in fp32 NCHW, to compare row by row with
# run05 (the first held run).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
fail=0
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_faults >/tmp/f.log 2>&1
rc=$?; [ $rc = 0 ] || fail=1
echo "== gpu_faults: exit $rc in $(( $(date +%s) - s )) s"; tail -3 /tmp/f.log
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 150 ./tests/gpu_conv.sh >/tmp/g.log 2>&1
rc=$?; [ $rc = 0 ] || fail=1
echo "== gpu_conv: exit $rc in $(( $(date +%s) - s )) s"; grep -E "FAIL|passed|failed" /tmp/g.log | cut -c1-160 | tail -8
s=$(date +%s)
timeout -s INT -k 10 150 ./dlbtune --op conv --suite inference_server --db /tmp/c1 -v --csv >$OUT/inf.csv 2>$OUT/inf.err
echo "== conv_inference_server fp32 (150 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|error|warning|retried|timed out" $OUT/inf.err | cut -c1-220 | head
grep -E "us, vendor best" $OUT/inf.err | cut -c1-200
test $fail = 0 && echo "conv run08: all passed"
