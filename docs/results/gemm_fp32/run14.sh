#!/bin/bash
# Device call 14 for issue 30, on two GPUs of one host: DeepBench gemm_training in fp32 with --fp32-math ffma
# (the FFMA tiles and skinny family only: a restricted search, shown, not stored), default search (--min-search 2), against the strict-fp32 vendor best. The
# suite's rows alternate between the GPUs (odd rows on GPU 0, even on GPU 1), each its own process and
# database; a run stopped by the time limit prints the rows it finished.
# Within what device time was left (330 s a GPU): a run stopped by the limit prints the rows it finished.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
suite=src/ops/gemm/suites/gemm_training.csv
awk 'NR == 1 || NR % 2 == 0' $suite > /tmp/half0.csv
awk 'NR == 1 || NR % 2 == 1' $suite > /tmp/half1.csv
pids=
for g in 0 1; do
	CUDA_VISIBLE_DEVICES=$g timeout -s INT -k 10 330 ./dlbtune --op gemm --prec fp32 --suite /tmp/half$g.csv \
		--db /tmp/dbf$g --min-search 2 --fp32-math ffma --csv > $OUT/half$g.csv 2> $OUT/half$g.err &
	pids="$pids $!"
done
wait $pids # not a bare wait: that waits for tee too
echo "== tuned $(( $(date +%s) - t0 )) s"
grep -hE "^kernels:|error" $OUT/half*.err | head -4
python3 docs/results/gemm_fp32/summary.py $OUT/half0.csv $OUT/half1.csv
echo "== total $(( $(date +%s) - t0 )) s"
