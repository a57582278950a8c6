#!/bin/bash
# Device call 58 (sparse, issue 29), prepared 2026-11-28. First GPU run of KIND 6: FFMA on A's BSR copy (the one
# cuSPARSE's BSR_ALG1 reads), where a block pattern's square blocks tile M and K; a lane keeps the block row's
# RPW rows of its VN columns, so each value of B it loads serves RPW products (KIND 3 reads B from shared memory
# once a nonzero: its ceiling, NOTES item 101). run56: fp32 7680x1500x2560 at 90% in 16x16 blocks, ours 767 us
# against BSR_ALG1's 429 (0.56x). (1) gpu_spmm: every candidate on the awkward problems, three new block ones,
# and KIND 6 alone on the four with a BSR copy; (2) block_rows.csv (16x16, 8x8, 4x4 blocks; N = 128, 1500, 3000)
# in fp32 and fp16, default search, fresh databases, with the winners' families and cuSPARSE's best.
# Prediction: fp32 16x16 at N = 1500 in 180-250 us (1.7-2.4x BSR's 429), 8x8 in 250-350; 4x4 stays KIND 3's;
# fp16 16x16 KIND 6 near KIND 5's 300 us.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 260 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|KIND 6:" $OUT/gspmm.log | cut -c1-200 | tail -14
for prec in fp32 fp16; do
	s=$(date +%s)
	timeout -s INT -k 5 110 ./dlbtune --op spmm --prec $prec --suite docs/results/sparse/block_rows.csv --db /tmp/dbb$prec \
		--csv >$OUT/blk_$prec.csv 2>$OUT/blk_$prec.err
	echo "== block rows, $prec: exit $? in $(( $(date +%s) - s )) s"
	python3 - $OUT/blk_$prec.csv <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("  %sx%sx%s %s %s | %-52s %9s us | %-14s %9s us | paired %s" % (r["m"], r["n"], r["k"], r["sparsity"],
          r["layout"], r["best_config"][:52], r["tuned_us"], r["cusparse_algo"], r["cusparse_us"], r["paired_speedup"]))
PY
done
