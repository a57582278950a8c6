#!/bin/bash
# Device call 84 for convolution (issue 28), prepared 2026-11-29 (not run). conv_inference_server fp16 NHWC, the
# whole suite, default search, with split-K as a thread-block cluster in the space (659de03) and tune.c's points
# sized for its variants (7ec5804, which no GPU has run: this call is its first run). run69 (1.153x paired, batch
# 1 1.170x; the latency-bound analysis in README.md) is the comparison. Build: make; carry dlbtune, .gpu/env.sh,
# .gpu/lib. Then: python3 docs/results/conv/latency_bound.py on the CSV, as for run69.
# Prediction: the suite within 1% of run69's (the A/B in run83 was 0.992 over the 13 split rows, 8% on 84x20
# c256 k256 alone); every row 0 wrong, 0 faults; batch-1 rows with a cluster winner on the 128x128 tiles.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
timeout -s INT -k 10 ${SUITE_S:-540} ./dlbtune --op conv --prec fp16 --layout NHWC --suite inference_server --db /tmp/dbI -v \
	--csv >$OUT/inference_server.csv 2>$OUT/inference_server.err
echo "== conv_inference_server fp16: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/inference_server.err) rows"
grep -E "wrong|fault" $OUT/inference_server.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
echo "rows won by a cluster split: $(grep -c 'SPLITK=-' $OUT/inference_server.csv)"
gzip -f $OUT/inference_server.err
