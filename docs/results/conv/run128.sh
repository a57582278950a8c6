#!/bin/bash
# Device call 128 (issue 28), 2026-12-01 (an eighth session): tests/gpu_conv.sh in fp16, whole (every candidate
# of every kind on conv_awkward.csv, then KIND 3, 4 and 5 alone), on b80c2c8 (the code of 47e21e0, KIND 5 landed).
# run125 PART=1 ran KIND 5's own section; this is the rest of fp16's, the precision KIND 5 is in (the other kinds'
# cubins are byte-identical to the previous build's, NOTES item 207).
# Build: ./bootstrap && ./configure && make; ../shared/gpu/bundle .gpu ./dlbtune; carry dlbtune and .gpu.
. .gpu/env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
GPU_CONV_PRECS=fp16 timeout 500 sh tests/gpu_conv.sh
echo "== gpu_conv fp16: exit $? in $(( $(date +%s) - t0 )) s"
