#!/bin/bash
# Device call 6 for issue 30, item 4: accuracy measured. tests/gpu_tune_cache.sh (its new check: the winner's
# and the vendor best's errors measured and of fp32 rounding size), then the accuracy of fp32 and fp16
# winners and vendor bests on N = 16 products with K from 128 to 500000 (|c - exact| / sum |a b| at 16
# sampled outputs; --min-search 1).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
top_builddir=. top_srcdir=. timeout 200 sh tests/gpu_tune_cache.sh > $OUT/tune_cache.txt 2>&1; echo "gpu_tune_cache exit $?"
tail -1 $OUT/tune_cache.txt; grep FAIL $OUT/tune_cache.txt | head -5
echo "== $(( $(date +%s) - t0 )) s"
printf 'm,n,k,a_t,b_t\n1024,16,128,0,0\n1024,16,4096,0,0\n1024,16,65536,0,0\n512,16,500000,0,0\n' > /tmp/acc.csv
for p in fp32 fp16; do
	timeout -s INT -k 10 100 ./dlbtune --op gemm --prec $p --suite /tmp/acc.csv --db /tmp/db6 --min-search 1 -v \
		2>&1 >/dev/null | grep -E "accuracy at|^\[" | sed -e 's/^ *//' | cut -c1-220
	echo "== $p $(( $(date +%s) - t0 )) s"
done
./dlbtune export --format csv --db /tmp/db6 2>/dev/null > $OUT/acc.csv
echo "== total $(( $(date +%s) - t0 )) s"
