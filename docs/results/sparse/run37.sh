#!/bin/bash
# Device call 37 for sparse (issue 29): the %HBM column (GB/s as a share of the memory bandwidth the result now
# records, mem_peak). DeepBench's four SpMV rows (N = 1) of the sparse suite, on a fresh database.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
printf 'm,n,k,sparsity\n7680,1,2560,0.95\n10752,1,3584,0.95\n7680,1,2560,0.9\n10752,1,3584,0.9\n' >/tmp/spmv.csv
s=$(date +%s)
timeout -s INT -k 10 200 ./dlbtune --op spmm --suite /tmp/spmv.csv --db /tmp/spmv >$OUT/spmv.txt 2>$OUT/spmv.err
echo "== spmv rows: exit $? in $(( $(date +%s) - s )) s"
cut -c1-400 $OUT/spmv.txt
./dlbtune export --format csv --db /tmp/spmv >$OUT/spmv.csv
