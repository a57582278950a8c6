#!/bin/bash
# Device call 53 for convolution (issue 28): conv_inference_server fp16 NHWC on the conv_reduce build, fresh
# database (interrupted at the call's limit if need be: what it finished is in the CSV).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
timeout -s INT -k 10 560 ./dlbtune --op conv --prec fp16 --layout NHWC --suite inference_server --db /tmp/dbI -v --csv >$OUT/inference_server.csv 2>$OUT/inference_server.err
echo "== conv_inference_server fp16 (560 s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "^\[" $OUT/inference_server.err) rows"
grep -E "wrong|fault" $OUT/inference_server.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
gzip -f $OUT/inference_server.err
