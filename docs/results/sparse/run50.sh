#!/bin/bash
# Device call 50 (sparse, issue 29): KIND 5 with VN 16 (128 columns a block: a warp's 2 x 16 mma tiles, 244
# registers, no spills), so that a warp's zeroing and scatter of its A tile serve twice run49's mma.sync. KIND 5
# alone on the 12 rows with N >= 1500 (against run49's f1: 306-2005 us, geomean 1.744x paired vs cuSPARSE fp16).
# Prediction: VN 16 wins the N = 3000 and 6000 rows by 10-20%; at N = 1500 (12 chunks of 128 columns, the last
# 92 wide) less. Then gpu_spmm (both precisions, every candidate verified, VN 16 on the awkward problems with
# N >= 8) and the whole fp16 suite.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
table() {
	python3 - "$1" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
g = []
for r in rows:
    print("%6s %5s %6s %5s %-44s %9s us, cuSPARSE %9s, dense %9s, paired %s" % (r["m"], r["n"], r["k"], r["sparsity"],
          r["best_config"][:44], r["tuned_us"], r["cusparse_us"], r["dense_us"], r["paired_speedup"]))
    try:
        g.append(math.log(float(r["paired_speedup"])))
    except ValueError:
        pass
if g:
    print("%s: %d rows, paired geomean %.3f" % (sys.argv[1].split("/")[-1], len(g), math.exp(sum(g) / len(g))))
PY
}
for b in ./dlbtune; do
	s=$(date +%s)
	n=$(basename $b)
	timeout -k 5 100 $b --op spmm --prec fp16 --suite docs/results/sparse/wide_rows.csv --only "KIND=5 " \
		--db /tmp/db5_$n --csv >$OUT/k5_$n.csv 2>$OUT/k5_$n.err
	echo "== KIND 5 alone, $n: exit $? in $(( $(date +%s) - s )) s"
	table $OUT/k5_$n.csv
done
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|^==" $OUT/gspmm.log | cut -c1-200 | tail -20
grep -c " ok, 0 wrong, 0 faults)" $OUT/gspmm.log
s=$(date +%s)
timeout -k 5 170 ./dlbtune --op spmm --prec fp16 --db /tmp/dbh --csv >$OUT/suite.csv 2>$OUT/suite.err
echo "== fp16 suite, whole space: exit $? in $(( $(date +%s) - s )) s"
table $OUT/suite.csv
