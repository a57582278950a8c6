#!/bin/bash
# Device call 122 (issue 28), prepared 2026-11-30 (a seventh session): is the speech gap the search's or the
# space's? run121 PART=1 left speech at 1.469x, held down by five rows (weak_speech122.csv: 42x10 c512 k512 n2
# 1.04x, 350x80 c64 k64 n2 1.05x, 700x161 c1 k64 5x5 s2 1.14x, 84x20 c256 k256 1.16x, 175x40 c128 k256 5x5 s2
# 1.20x), where the default search evaluated 16-33% of the candidates (350x80 n2: 84 of 522).
# On HEAD's build, fp16 NHWC: every candidate (--strategy exhaustive --fixed-samples 3), then the default search,
# fresh databases each; the default/exhaustive time per row; simulate --from-db replays the default search on
# the exhaustive landscapes. Prediction: the exhaustive best within 2% of the default's on 4 of 5 rows (so the
# gap is the kernels', as GEMM's item 184 found for fp32), 3-8% better on 350x80 n2.
# One call: mkdir -p $OUT && OUT=$OUT bash docs/results/conv/run122.sh. Build: make; bundle; carry dlbtune, .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
t0=$(date +%s)
a="--op conv --prec fp16 --layout NHWC --suite $d/weak_speech122.csv --csv"
timeout -s INT -k 5 ${XS:-330} ./dlbtune $a --strategy exhaustive --fixed-samples 3 --db /tmp/dbx >$OUT/exhaustive.csv 2>$OUT/exhaustive.err
echo "== exhaustive: exit $? at $(( $(date +%s) - t0 )) s"
timeout -s INT -k 5 ${DS:-150} ./dlbtune $a --db /tmp/dbd >$OUT/default.csv 2>$OUT/default.err
echo "== default: exit $? at $(( $(date +%s) - t0 )) s"
python3 $d/ab122.py $OUT/exhaustive.csv $OUT/default.csv $d/logs/run121/part1/batch1_speech.csv
./dlbtune simulate --from-db --db /tmp/dbx --op conv --prec fp16 >$OUT/simulate.txt 2>&1
echo "== simulate --from-db: exit $?"; tail -12 $OUT/simulate.txt
gzip -f $OUT/*.err
