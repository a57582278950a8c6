#!/bin/bash
# Device call (nvidia-h200-x2): the resident A on the H200: m35.csv tuned by this build on GPU 0 and by the
# previous one (df029a3, ./dlbtune.old) on GPU 1, at the same time, fresh databases.
. .gpu/env.sh
nvidia-smi --query-gpu=index,name,clocks.max.sm,power.limit --format=csv,noheader
for b in new old; do
  bin=./dlbtune; d=0; [ $b = old ] && bin=./dlbtune.old d=1
  ( timeout -s INT 300 $bin --op gemm --prec fp16 --suite docs/results/h100/m35.csv --device $d --db /tmp/db_$b -v --csv \
      >$OUT/h200_m35_$b.csv 2>$OUT/h200_m35_$b.err; echo "$b on GPU $d: exit $?" ) &
done
wait
for b in new old; do
  echo "== $b"; grep -E "compiled|wall" $OUT/h200_m35_$b.err
  awk -F, '{print $1, $2, $3, $4, $6, $7, $(NF-4), $(NF-3), $(NF-2), $(NF-1), $NF}' $OUT/h200_m35_$b.csv
done
