#!/bin/bash
# Issue 33, device call 3: compiling once for several GPUs (kernel cache claims), from a cold cache: 8 problems of
# gemm_training on GPU 0 alone, then on both GPUs (fresh databases each). Then --devices all with one GPU visible
# against --device 0 on the same 8 (warm cache, fresh results each): the same rows and columns.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,uuid --format=csv,noheader
S=docs/results/fleet/sub8.csv
for run in "one --device 0" "two --devices all"; do
	set -- $run; name=$1; shift
	s=$(date +%s)
	./dlbtune --op gemm --prec fp16 --suite $S $@ --db /tmp/cold_$name -v >$OUT/cold_$name.txt 2>$OUT/cold_$name.err
	echo "== cold, $name: exit $? in $(( $(date +%s) - s )) s"
	grep -E "kernels: [0-9]+ compiled by" $OUT/cold_$name.err
	./dlbtune db stats --db /tmp/cold_$name 2>&1 | grep -i kernel | head -3
done
if [ -d /tmp/one/kernels ]; then K=/tmp/one/kernels; else K=/tmp/cold_two/kernels; fi
for run in "dev0 --device 0" "all1 --devices all"; do
	set -- $run; name=$1; shift
	mkdir -p /tmp/eq_$name && cp -r $K /tmp/eq_$name/
	CUDA_VISIBLE_DEVICES=0 ./dlbtune --op gemm --prec fp16 --suite $S $@ --db /tmp/eq_$name >$OUT/eq_$name.txt 2>$OUT/eq_$name.err
	echo "== one GPU visible, $name: exit $?"
done
head -3 $OUT/eq_dev0.txt | cut -c1-150; head -3 $OUT/eq_all1.txt | cut -c1-150
