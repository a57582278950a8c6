#!/bin/bash
# Device call 5 for convolution (issue 28): the timing harness now holds the stream until a sample's launches
# are queued (src/bench.c, util.cu's hold_stream). Checks: the fault tests still pass; DeepBench's
# conv_inference_server (fp32 NCHW) again, whose paired cuDNN samples were far off its own timing in run02;
# two GEMM rows to compare with the kernel-cache runs of this session (docs/results/kcache/run07.sh).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
fail=0
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_faults >/tmp/f.log 2>&1
rc=$?; [ $rc = 0 ] || fail=1
echo "== gpu_faults: exit $rc in $(( $(date +%s) - s )) s"; tail -3 /tmp/f.log
s=$(date +%s)
timeout -s INT -k 10 300 ./dlbtune --op conv --suite inference_server --db /tmp/c1 -v --csv >$OUT/inf.csv 2>$OUT/inf.err
rc=$?; [ $rc = 0 ] || fail=1
echo "== conv_inference_server fp32: exit $rc in $(( $(date +%s) - s )) s"
grep -E "^kernels|error|warning" $OUT/inf.err | cut -c1-220
for a in "--prec fp16 --m 35 --n 700 --k 2048" "--prec fp32 --m 5124 --n 700 --k 2048"; do
	timeout -s INT -k 10 100 ./dlbtune --op gemm $a --db /tmp/g1 -v >/dev/null 2>/tmp/g.err
	rc=$?; [ $rc = 0 ] || fail=1
	echo "== gemm $a: exit $rc"; grep -E "us, vendor best|side by side with" /tmp/g.err | cut -c1-220
done
test $fail = 0 && echo "conv run05: all passed"
