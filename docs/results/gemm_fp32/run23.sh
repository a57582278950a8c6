#!/bin/bash
# Device call 23 for issue 30 (several calls, one NVIDIA H200 each: no 4-GPU machine could be had): an fp32 GEMM
# suite on the build with ASPLIT (3xTF32 splitting A in the kernel, runs 21-22), full space, --min-search 2 as
# run18 (inference_server 1.388x) and run20 (training 1.231x), one shard of it per call: `run23.sh SUITE I/N`.
# The shards' databases are merged afterwards (dlbtune merge) and the suite's CSV exported from the merge.
# Energy bursts off (--power-ms 0).
. .gpu/env.sh
suite=$1 shard=$2
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
timeout -s INT -k 10 560 ./dlbtune --op gemm --prec fp32 --suite $suite --shard $shard --min-search 2 --power-ms 0 \
	--db $OUT/db --csv >$OUT/$suite.csv 2>$OUT/$suite.err
echo "== gemm_$suite fp32 shard $shard: exit $? in $(( $(date +%s) - t0 )) s; $(( $(wc -l <$OUT/$suite.csv) - 1 )) rows"
grep -hE "error|refereed" $OUT/$suite.err | head -4
python3 docs/results/gemm_fp32/summary.py $OUT/$suite.csv
rm -rf $OUT/db/kernels
tar czf $OUT/db.tgz -C $OUT db && rm -rf $OUT/db
gzip $OUT/*.err $OUT/*.csv
echo "== total $(( $(date +%s) - t0 )) s"
