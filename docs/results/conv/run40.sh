#!/bin/bash
# Device call 40 for convolution (issue 28): run39's build (3xTF32 in the fp32 space). DeepBench's
# conv_inference_server in fp32 NCHW, default search, against cuDNN's strict fp32 (FFMA alone: 1.08×, run05).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
timeout -s INT -k 10 400 ./dlbtune --op conv --prec fp32 --suite inference_server --db /tmp/inference -v --csv >$OUT/inference_server.csv 2>$OUT/inference_server.err
echo "== conv_inference_server fp32 NCHW (400 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|wrong|fault" $OUT/inference_server.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -8
tail -3 $OUT/inference_server.err | cut -c1-200
gzip -f $OUT/inference_server.err
