#!/bin/bash
# Device call 69 for convolution (issue 28), run67's build on run67-68's machine (kernel cache warm):
# conv_inference_server fp16 NHWC, all 107 rows, default search, fresh database.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
t0=$(date +%s)
timeout -s INT -k 10 540 ./dlbtune --op conv --prec fp16 --layout NHWC --suite inference_server --db /tmp/dbI -v --csv >$OUT/inference_server.csv 2>$OUT/inference_server.err
echo "== conv_inference_server fp16: exit $? in $(( $(date +%s) - t0 )) s; $(grep -c "^\[" $OUT/inference_server.err) rows"
grep -E "wrong|fault" $OUT/inference_server.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
gzip -f $OUT/inference_server.err
