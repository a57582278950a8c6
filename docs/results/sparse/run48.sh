#!/bin/bash
# Device call 48 (sparse, issue 29), prepared 2026-11-28 without device time: the first run of the fp16 op
# (branch sparse-fp16: the CUDA-core kernels on half data, and KIND 5, mma.sync on A made dense in shared memory
# a k-slice at a time). 1) gpu_spmm in both precisions (every candidate verified on the awkward suite; fp32 as a
# check that nothing of it moved); 2) KIND 5 alone, then the whole fp16 space, on DeepBench's sparse suite in
# fp16, default search (--csv). Prediction: KIND 5 wins N = 1500-6000 rows against cuSPARSE fp16 but not dense
# cuBLAS fp16 (its work is K·M·N whatever the sparsity); the CUDA-core kinds keep N = 1-4.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 230 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|ok, |data:|^==" $OUT/gspmm.log | cut -c1-200 | tail -40
s=$(date +%s)
timeout -k 5 110 ./dlbtune --op spmm --prec fp16 --only "KIND=5 " --db /tmp/db5 --csv >$OUT/k5.csv 2>$OUT/k5.err
echo "== KIND 5 alone, fp16 suite: exit $? in $(( $(date +%s) - s )) s"
s=$(date +%s)
timeout -k 5 200 ./dlbtune --op spmm --prec fp16 --db /tmp/dbh --csv >$OUT/suite.csv 2>$OUT/suite.err
echo "== fp16 suite, whole space: exit $? in $(( $(date +%s) - s )) s"
for f in k5 suite; do
	python3 - $OUT/$f.csv <<'PY'
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
done
tail -4 $OUT/k5.err $OUT/suite.err | cut -c1-220
