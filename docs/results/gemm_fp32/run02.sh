#!/bin/bash
# NOTE: exp/dlbtune_{base,pf,pf256} were three local builds of that state (not committed); logs/run02.
# Device call 2 for issue 30. (1) N = 1 rows, skinny family only (--only KIND=2), three builds: the family as
# run01 measured it (base), with A read by ld.global.nc.L1::no_allocate.L2::256B (pf), and that plus
# BM = 256 (pf256, 1 KB runs of each column per slice). (2) pf256 on DeepBench training's rows with N <= 16
# (N = 8 and 16; NN and TN), full space, default search with --min-search 2.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
printf 'm,n,k,a_t,b_t\n7680,1,2560,0,0\n6144,1,2048,0,0\n8448,1,2816,0,0\n4608,1,1536,0,0\n512,1,500000,0,0\n' > /tmp/n1.csv
for b in base pf pf256; do
	timeout -s INT -k 10 120 exp/dlbtune_$b --op gemm --prec fp32 --suite /tmp/n1.csv --db /tmp/db_$b --min-search 2 \
		--only KIND=2 2>&1 >/dev/null | grep "^\[" | sed "s/^/$b /" | cut -c1-220
done
echo "== n1 $(( $(date +%s) - t0 )) s"
awk -F, 'NR == 1 || $2 <= 16' src/ops/gemm/suites/gemm_training.csv > /tmp/tr16.csv
echo "== $(($(wc -l < /tmp/tr16.csv) - 1)) training rows"
timeout -s INT -k 10 400 exp/dlbtune_pf256 --op gemm --prec fp32 --suite /tmp/tr16.csv --db /tmp/db2 --min-search 2 \
	--csv > $OUT/tr16.csv 2> $OUT/tr16.err; echo "tune exit $?"
grep "^\[" $OUT/tr16.err | cut -c1-220
tar czf $OUT/dbs.tgz -C /tmp db2 db_base db_pf db_pf256 2>/dev/null
echo "== total $(( $(date +%s) - t0 )) s"
