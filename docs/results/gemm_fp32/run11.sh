#!/bin/bash
# Device call 11 for issue 30, on two GPUs of one host: DeepBench gemm_inference_server in fp32, default search
# (--min-search 2), against the strict-fp32 vendor best. GPU 0: the full space (FFMA tiles, FFMA skinny,
# 3xTF32); GPU 1 at the same time: --fp32-math ffma (the CUDA-core families only; a restricted search, so its
# best is shown, not stored). Each GPU its own process and database.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
suite=src/ops/gemm/suites/gemm_inference_server.csv
CUDA_VISIBLE_DEVICES=0 timeout -s INT -k 10 540 ./dlbtune --op gemm --prec fp32 --suite $suite --db /tmp/dbfull \
	--min-search 2 --csv > $OUT/full.csv 2> $OUT/full.err &
CUDA_VISIBLE_DEVICES=1 timeout -s INT -k 10 540 ./dlbtune --op gemm --prec fp32 --suite $suite --db /tmp/dbffma \
	--min-search 2 --fp32-math ffma --csv > $OUT/ffma.csv 2> $OUT/ffma.err &
wait # (run11 hung here: a bare wait also waits for the tee of the process substitution; CSVs complete)
echo "== tuned $(( $(date +%s) - t0 )) s"
for s in full ffma; do
	echo "== $s"; grep -E "kernels:|error" $OUT/$s.err | head -3
	python3 docs/results/gemm_fp32/summary.py $OUT/$s.csv
done
tar czf $OUT/dbfull.tgz -C /tmp dbfull 2>/dev/null
echo "== total $(( $(date +%s) - t0 )) s"
