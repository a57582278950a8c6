#!/bin/bash
# Device call 75 for convolution (issue 28): run74 found fp32 KIND 3 wrong on every configuration of one training
# row (120x12 c32 n16 k64 3x3 pad 1 NCHW) while right on the 16 awkward rows. Variants of that row, KIND 3 alone,
# each candidate's trial with its error (-vv), to find what the failing case needs.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
one() { # name, then the problem's flags
	local name=$1; shift
	./dlbtune --op conv --prec fp32 --only 'KIND=3' --db /tmp/db_$name -vv "$@" >/dev/null 2>$OUT/$name.err
	echo "== $name ($*): exit $?; $(grep -c 'wrong_answer' $OUT/$name.err) wrong, $(grep -cE ' ok ' $OUT/$name.err) ok"
	grep -E "KIND=3" $OUT/$name.err | grep -E "wrong|ok " | cut -c1-150 | head -3
}
base="--w 120 --h 12 --n 16 --r 3 --s 3 --pad-w 1 --pad-h 1"
one row11 $base --c 32 --k 64
one nhwc $base --c 32 --k 64 --layout nhwc
one c16 $base --c 16 --k 64
one c24 $base --c 24 --k 64
one c20 $base --c 20 --k 64
one k16 $base --c 32 --k 16
one n1 --w 120 --h 12 --n 1 --r 3 --s 3 --pad-w 1 --pad-h 1 --c 32 --k 64
one w128 --w 128 --h 16 --n 16 --r 3 --s 3 --pad-w 1 --pad-h 1 --c 32 --k 64
one c56 $base --c 56 --k 64
cat $OUT/*.err | gzip > $OUT/all_err.gz; rm $OUT/*.err
