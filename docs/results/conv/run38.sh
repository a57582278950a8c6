#!/bin/bash
# Device call 38 (the session's last): the final build (d3229c3: --only stores nothing for what it leaves out).
# gpu_faults and gpu_tune_cache (the tuning driver changed), and on one conv row a restricted search followed by
# a full one: the full search must measure what --only left out and store its own best.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for t in gpu_faults gpu_tune_cache.sh; do
	s=$(date +%s)
	DLB_REQUIRE_GPU=1 timeout -k 5 120 ./tests/$t >$OUT/$t.log 2>&1
	echo "== $t: exit $? in $(( $(date +%s) - s )) s"
	tail -1 $OUT/$t.log | cut -c1-200
done
row="--w 28 --h 28 --c 256 --n 16 --k 512 --s 3 --r 3 --pad-w 1 --pad-h 1 --layout NHWC"
./dlbtune --op conv --prec fp16 $row --db /tmp/o --only 'KIND=2' -v >$OUT/only.txt 2>$OUT/only.err
echo "== --only KIND=2: exit $?"; grep -E "restricted|^\[" $OUT/only.err | cut -c1-200; tail -2 $OUT/only.txt | cut -c1-200
./dlbtune --op conv --prec fp16 $row --db /tmp/o -v >$OUT/full.txt 2>$OUT/full.err
echo "== full: exit $?"; grep -E "interrupted run|^\[" $OUT/full.err | cut -c1-200; tail -2 $OUT/full.txt | cut -c1-200
./dlbtune db show --db /tmp/o --op conv --prec fp16 $row 2>&1 | grep -ciE "kind=[01]" 
