#!/bin/bash
# Device call 85 (sparse, issue 29), 2026-11-29, right after run84 on the same machine: the fp32 suite whole with
# run84's new build (KIND 0/4's rows of B in flight together). Carry .gpu/env.sh, .gpu/lib, .gpu/new.
# Prediction: 1.640x (run61) -> about 1.69x (run84's eight N = 2, 4 rows 1.967x -> 2.121x, the rest unchanged).
. .gpu/env.sh
cp .gpu/new/dlbtune ./dlbtune
t0=$(date +%s)
timeout -s INT -k 10 330 ./dlbtune --op spmm --prec fp32 --db /tmp/db_fp32 --csv >$OUT/suite_fp32.csv 2>$OUT/suite_fp32.err
echo "== sparse suite fp32: exit $? at $(( $(date +%s) - t0 )) s"
python3 docs/results/sparse/table.py $OUT/suite_fp32.csv | grep -E "geomean|^- "
grep -c "vendor best" $OUT/suite_fp32.err
gzip -f $OUT/suite_fp32.err
