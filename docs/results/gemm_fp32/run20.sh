#!/bin/bash
# Device call 20 for issue 30 (and 28), on a 4-GPU machine (--devices all: each GPU takes the next problem):
# the training suites again on this build, with the referee (NOTES item 84: run13's three TN rows no longer lost
# to the reference's own error) and the tensor cores' sums added every two k-tiles (items 85, 87).
# 1. DeepBench gemm_training, fp32, full space, --min-search 2 as run12 (1.188x);
# 2. DeepBench conv_training, fp32 NCHW, default search as conv run77 (1.187x).
# Energy bursts off (--power-ms 0): they do not change the speeds and would take 2 s a row.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
timeout -s INT -k 10 380 ./dlbtune --op gemm --prec fp32 --devices all --min-search 2 --power-ms 0 --db /tmp/g \
	--csv >$OUT/gemm_training.csv 2>$OUT/gemm_training.err
echo "== gemm_training fp32: exit $? in $(( $(date +%s) - t0 )) s; $(( $(wc -l <$OUT/gemm_training.csv) - 1 )) rows"
grep -hE "error|refereed" $OUT/gemm_training.err | head -4
python3 docs/results/gemm_fp32/summary.py $OUT/gemm_training.csv
t1=$(date +%s) left=$(( 570 - ($(date +%s) - t0) ))
timeout -s INT -k 10 $left ./dlbtune --op conv --suite training --prec fp32 --devices all --power-ms 0 --db /tmp/c \
	--csv >$OUT/conv_training.csv 2>$OUT/conv_training.err
echo "== conv_training fp32 NCHW: exit $? in $(( $(date +%s) - t1 )) s; $(( $(wc -l <$OUT/conv_training.csv) - 1 )) rows"
grep -hE "geomean" $OUT/conv_training.err | tail -2
gzip $OUT/*.err $OUT/*.csv
echo "== total $(( $(date +%s) - t0 )) s"
