#!/bin/bash
# Issue 33, device call 4 (build 5077f93: keys name the GPU's model). On a host of two GPUs of one model: 8
# problems tuned on GPU 0; the same command on GPU 1 answers all 8 from the database, labelled with the GPU
# that measured them; --per-gpu on GPU 1 tunes again (one problem). Then gpu_faults and gpu_tune_cache.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,uuid,driver_version,clocks.max.sm --format=csv,noheader
S=docs/results/fleet/sub8.csv
s=$(date +%s)
./dlbtune compile --op gemm --prec fp16 --suite $S --db /tmp/m >$OUT/compile.txt 2>&1
echo "== compile: exit $? in $(( $(date +%s) - s )) s"
s=$(date +%s)
./dlbtune --op gemm --prec fp16 --suite $S --device 0 --db /tmp/m --csv >$OUT/gpu0.csv 2>$OUT/gpu0.err
echo "== GPU 0: exit $? in $(( $(date +%s) - s )) s; $(grep -c '^\[' $OUT/gpu0.err) tuned"
s=$(date +%s)
./dlbtune --op gemm --prec fp16 --suite $S --device 1 --db /tmp/m -v >$OUT/gpu1.txt 2>$OUT/gpu1.err
echo "== GPU 1: exit $? in $(( $(date +%s) - s )) s; $(grep -c '^\[' $OUT/gpu1.err) tuned"
grep "answered from" $OUT/gpu1.err; cut -c1-30,200- $OUT/gpu1.txt | head -12
./dlbtune --op gemm --prec fp16 --m 512 --n 32 --k 512 --device 1 --per-gpu --db /tmp/m >$OUT/pergpu.txt 2>$OUT/pergpu.err
echo "== GPU 1 --per-gpu: exit $?; $(grep -c '^\[' $OUT/pergpu.err) tuned"
./dlbtune --op gemm --prec fp16 --m 512 --n 32 --k 512 --device 0 --db /tmp/m 2>&1 | grep -E "verified|yes|no " | cut -c1-20,180-
./dlbtune db verify --db /tmp/m | tail -1
./dlbtune export --format csv --db /tmp/m | cut -d, -f1-5 | head -4
for t in gpu_faults gpu_tune_cache.sh; do
	s=$(date +%s)
	DLB_REQUIRE_GPU=1 timeout -k 5 120 ./tests/$t >$OUT/$t.log 2>&1
	echo "== $t: exit $? in $(( $(date +%s) - s )) s"
	tail -1 $OUT/$t.log | cut -c1-200
done
