#!/bin/bash
# Issue 33, device call 2: the one-GPU run of call 1, resumed from its database (brought back from call 1) with
# the same command; on the same host if it is still warm (then its kernel cache is still in /tmp/one), else the
# cache is compiled again first (not timed). Then gpu_faults.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
T0=$(date +%s)
left() { echo $(( 585 - ($(date +%s) - T0) )); }
nvidia-smi --query-gpu=index,name,uuid,driver_version,clocks.max.sm --format=csv,noheader
if [ -d /tmp/one/kernels ]; then echo "warm host: /tmp/one/kernels is there"; else
	echo "fresh host: compiling the cache"; mkdir -p /tmp/one
	./dlbtune compile --op gemm --prec fp16 --suite training --db /tmp/one 2>&1 | tail -1
fi
mkdir -p /tmp/one_b && cp -r /tmp/one/kernels /tmp/one_b/ && (cd /tmp/one_b && tar xzf $OLDPWD/.gpu/fleet/one_db.tgz)
s=$(date +%s)
timeout -s INT $(left) ./dlbtune --op gemm --prec fp16 --suite training --device 0 --db /tmp/one_b -v --csv \
	>$OUT/one_b.csv 2>$OUT/one_b.err
echo "== one GPU, part 2: exit $? in $(( $(date +%s) - s )) s; $(grep -c '^\[' $OUT/one_b.err) problems done"
grep "answered from" $OUT/one_b.err
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 $(left) ./tests/gpu_faults >$OUT/gpu_faults.log 2>&1
echo "== gpu_faults: exit $? in $(( $(date +%s) - s )) s"; tail -1 $OUT/gpu_faults.log | cut -c1-200
