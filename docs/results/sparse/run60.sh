#!/bin/bash
# Device call 60 (sparse, issue 29), 2026-11-28. run58 showed cuSPARSE's Blocked-ELL (tensor cores) far ahead of
# ours in fp16 on two 16x16 block rows (10752x3000x3584: 562 us against KIND 5's 903; 7680x128x2560: 17.4 against
# 45). KIND 7 (fp16): mma.sync on A's BSR copy, each 16x16 block one m16k16 fragment read straight from global
# memory, B's fragments from 8-byte loads of its rows (four n8 tiles with interleaved columns a warp's 32), no
# shared memory. (1) gpu_spmm: every candidate on the awkward problems, KIND 6 alone on the four BSR ones and
# KIND 7 alone on the 16x16 (N = 66) and 32x32 (N = 40) ones; (2) block_rows.csv in fp16 and fp32 (as run58).
# (3) below. Prediction: fp16 16x16 rows at 3-6x KIND 5's times where N >= 1500 (B's traffic from L2, about 370 MB at
# 7680x1500x2560, bounds it near 40-60 us), ahead of Blocked-ELL on every 16x16 row.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 260 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|KIND [67]:" $OUT/gspmm.log | cut -c1-200 | tail -16
for prec in fp16 fp32; do
	s=$(date +%s)
	timeout -s INT -k 5 110 ./dlbtune --op spmm --prec $prec --suite docs/results/sparse/block_rows.csv --db /tmp/dbb$prec \
		--csv >$OUT/blk_$prec.csv 2>$OUT/blk_$prec.err
	echo "== block rows, $prec: exit $? in $(( $(date +%s) - s )) s"
	python3 - $OUT/blk_$prec.csv <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("  %sx%sx%s %s %s | %-52s %9s us | %-16s %9s us | paired %s" % (r["m"], r["n"], r["k"], r["sparsity"],
          r["layout"], r["best_config"][:52], r["tuned_us"], r["cusparse_algo"], r["cusparse_us"], r["paired_speedup"]))
PY
done
# (3) KIND 6 alone, fp32, on block_rows.csv: the build of run58 (.gpu/dlbtune_k6a, 90ae36a) against this one,
# whose KIND 6 loads the next four rows of B before each step's FMAs. Prediction: 15-30% faster at 16x16.
for b in .gpu/dlbtune_k6a ./dlbtune; do
	s=$(date +%s)
	timeout -s INT -k 5 60 $b --op spmm --prec fp32 --suite docs/results/sparse/block_rows.csv --only KIND=6 \
		--db /tmp/dbk6_$(basename $b) --csv >$OUT/k6_$(basename $b).csv 2>/dev/null
	echo "== KIND 6 alone, fp32, $(basename $b): exit $? in $(( $(date +%s) - s )) s"
	python3 - $OUT/k6_$(basename $b).csv <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("  %sx%sx%s %s %s | %-52s %9s us | paired %s" % (r["m"], r["n"], r["k"], r["sparsity"], r["layout"],
          r["best_config"][:52], r["tuned_us"], r["paired_speedup"]))
PY
done
