#!/bin/bash
# Device call 84b for convolution (issue 28), 2026-11-29: the rows of conv_inference_server fp16 NHWC that run84
# did not reach in its 540 s (the machine's kernel cache was cold: the space compiled inside the call), the 15 of
# inference_rest84.csv, default search, fresh database. They are 1x1 NHWC layers, which run GEMM's kernels.
# Carry dlbtune, .gpu/env.sh, .gpu/lib. Budget: SUITE_S seconds (default 300).
. .gpu/env.sh
t0=$(date +%s)
timeout -s INT -k 10 ${SUITE_S:-300} ./dlbtune --op conv --prec fp16 --layout NHWC --suite docs/results/conv/inference_rest84.csv \
	--db /tmp/dbR -v --csv >$OUT/inference_rest.csv 2>$OUT/inference_rest.err
echo "== conv_inference_server fp16 rest: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/inference_rest.err) rows"
grep -E "wrong|fault" $OUT/inference_rest.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
gzip -f $OUT/inference_rest.err
