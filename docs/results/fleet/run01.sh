#!/bin/bash
# Issue 33, device call 1 (nvidia-h100-x2): --devices on a real host of two GPUs. The fp16 gemm_training
# suite (160 problems) over both GPUs with a warm kernel cache and fresh results, then the same suite on GPU 0
# alone (same cache, fresh results) for as long as the call allows: interrupted, its database brought back,
# resumed in call 2 (the one-GPU wall time is the sum of the two parts).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
T0=$(date +%s)
left() { echo $(( 580 - ($(date +%s) - T0) )); }
nvidia-smi --query-gpu=index,name,uuid,driver_version,clocks.max.sm --format=csv,noheader
echo "host cores: $(nproc)"
./dlbtune devices | cut -c1-150
./dlbtune --op gemm --devices 0,7 --m 64 --n 64 --k 64 --db /tmp/x; echo "== --devices 0,7: exit $?"
s=$(date +%s)
./dlbtune compile --op gemm --prec fp16 --suite training --db /tmp/warm >$OUT/compile.txt 2>&1
echo "== compile: exit $? in $(( $(date +%s) - s )) s"; tail -1 $OUT/compile.txt | cut -c1-200
mkdir -p /tmp/two /tmp/one && cp -r /tmp/warm/kernels /tmp/two/ && cp -r /tmp/warm/kernels /tmp/one/
s=$(date +%s)
./dlbtune --op gemm --prec fp16 --suite training --devices all --db /tmp/two -v --csv >$OUT/two.csv 2>$OUT/two.err
echo "== two GPUs: exit $? in $(( $(date +%s) - s )) s"
echo "rows by GPU 0: $(grep -c '^GPU 0: \[' $OUT/two.err), by GPU 1: $(grep -c '^GPU 1: \[' $OUT/two.err)"
grep -E "^dlbtune|kernels:|wall" $OUT/two.err | cut -c1-200
s=$(date +%s)
timeout -s INT $(left) ./dlbtune --op gemm --prec fp16 --suite training --device 0 --db /tmp/one -v --csv \
	>$OUT/one_a.csv 2>$OUT/one_a.err
echo "== one GPU, part 1: exit $? in $(( $(date +%s) - s )) s; $(grep -c '^\[' $OUT/one_a.err) problems done"
(cd /tmp/one && tar czf $OUT/one_db.tgz --exclude=./kernels .)
ls -la $OUT
