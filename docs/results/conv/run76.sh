#!/bin/bash
# Device call 76 for convolution (issue 28): fp32 KIND 3 with its small products in a second accumulator (run75:
# the error grew with C·R·S past fp32's tolerance, the same on every configuration). run75's failing variants
# again (KIND 3 alone, errors shown), gpu_conv fp32 with its new 504-tap row (every candidate of every kind),
# then conv_training fp32 NCHW on a fresh database against run72 (1.134×) and run74.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
one() { # name, then the problem's flags
	local name=$1; shift
	./dlbtune --op conv --prec fp32 --only 'KIND=3' --db /tmp/db_$name -vv "$@" >/dev/null 2>$OUT/$name.err
	echo "== $name ($*): exit $?; $(grep -c 'wrong_answer' $OUT/$name.err) wrong, $(grep -cE ' ok ' $OUT/$name.err) ok"
	grep -E "KIND=3" $OUT/$name.err | grep -E "wrong|ok " | cut -c1-150 | head -2
}
base="--w 120 --h 12 --n 16 --r 3 --s 3 --pad-w 1 --pad-h 1"
one row11 $base --c 32 --k 64
one nhwc $base --c 32 --k 64 --layout nhwc
one w128 --w 128 --h 16 --n 16 --r 3 --s 3 --pad-w 1 --pad-h 1 --c 32 --k 64
one c56 $base --c 56 --k 64
cat $OUT/*.err | gzip > $OUT/variants_err.gz; rm $OUT/*.err
t1=$(date +%s)
GPU_CONV_PRECS=fp32 DLB_REQUIRE_GPU=1 timeout -k 5 250 ./tests/gpu_conv.sh >$OUT/gconv_fp32.log 2>&1
echo "== gpu_conv fp32 (250 s): exit $? in $(( $(date +%s) - t1 )) s"
grep -E "FAIL|passed|failed|KIND=3" $OUT/gconv_fp32.log | cut -c1-160 | tail -6
gzip -f $OUT/gconv_fp32.log
left=$(( 575 - ($(date +%s) - t0) ))
s=$(date +%s)
timeout -s INT -k 10 $left ./dlbtune --op conv --suite training --db /tmp/dbF -v --csv >$OUT/training_fp32.csv 2>$OUT/training_fp32.err
echo "== conv_training fp32 NCHW ($left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "^\[" $OUT/training_fp32.err) rows"
grep -E "wrong|fault" $OUT/*.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
gzip -f $OUT/*.err
