#!/bin/bash
# Device call 21 for convolution (issue 28): fp16 KIND=1 is now warp-specialised (a producer warpgroup fills the
# cp.async ring, mbarriers, the consumers keep a k-tile of wgmmas in flight). conv_training fp16 NHWC on a fresh
# database, to compare row by row with run19 (the first, synchronous wgmma kernel).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
timeout -s INT -k 10 540 ./dlbtune --op conv --prec fp16 --suite training --layout NHWC --db /tmp/t16 -v --csv >$OUT/train16.csv 2>$OUT/train16.err
echo "== conv_training fp16 NHWC (540 s): exit $? in $(( $(date +%s) - s )) s"
grep -E "^kernels|wrong|fault" $OUT/train16.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -8
gzip -f $OUT/train16.err
