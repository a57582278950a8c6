#!/bin/bash
# Device call 110 for convolution (issue 28), prepared and run 2026-11-30 on one NVIDIA H200 (logs/run110). The landscapes behind run109 PART=2's finding:
# a wider search (--window 64 --min-search 30) found 0.79-0.85 the time on three batch-1 rows where the default
# (window 8 for any space of 400 points or more, at least 3 s) stopped after 35-44 of 2238-2600 candidates.
# Every candidate of those three rows (exhaustive_rows.csv: 28x28 c256 k512 3x3, 84x20 c256 k256 3x3,
# 7x7 c512 k512 1x1; 7076 points) timed by the racer, the database brought back, so that `dlbtune simulate
# --from-db` can replay stop rules offline (docs/NOTES.md's way of choosing the search's defaults).
# Build here (./bootstrap && ./configure && make), carry dlbtune and .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
timeout -s INT -k 10 ${LIMIT:-240} ./dlbtune --op conv --prec fp16 --layout NHWC --suite docs/results/conv/exhaustive_rows.csv \
	--strategy exhaustive --db /tmp/dbx -v --csv >$OUT/exhaustive.csv 2>$OUT/exhaustive.err
echo "== exhaustive, 3 rows: exit $? at $(( $(date +%s) - t0 )) s"
grep -E "candidates, .* samples|kernels:" $OUT/exhaustive.err | cut -c1-200
cut -d, -f1-8,12-16 $OUT/exhaustive.csv | head -5
tar czf $OUT/db.tgz -C /tmp dbx && ls -la $OUT/db.tgz
gzip -f $OUT/exhaustive.err
# Outcome: the first two rows timed whole (2238 points each); the third interrupted at the limit (no result). db.tgz
# came back split in two (its kernel cache made it 18 MB); logs/run110/landscapes.mdb.gz is its data.mdb alone:
#   mkdir /tmp/l && zcat docs/results/conv/logs/run110/landscapes.mdb.gz >/tmp/l/data.mdb &&
#   dlbtune simulate --from-db --db /tmp/l --op conv --prec fp16 --any-version --seeds 0
