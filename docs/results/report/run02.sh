#!/bin/bash
# Device call 2 for the report (issue 31), on a 4-GPU machine (--devices all): DeepBench's conv
# inference_server suite in fp32 (NCHW, as DeepBench ran it), fp16 and int8 (NHWC: cuDNN's int8 needs it),
# with the default search, pairs and 500 ms energy bursts. The database (without its kernel cache) and a
# JSON export come back.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
R=$OUT/r; mkdir -p $R  # packed into $OUT/r.tgz at the end (few files come back)
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit,power.draw --format=csv,noheader
t0=$(date +%s) D=/tmp/dbc
suite() { # name, seconds at most, then the arguments
	local name=$1 most=$2; shift 2
	local s=$(date +%s) left=$(( 575 - ($(date +%s) - t0) ))
	[ $left -gt $most ] && left=$most
	timeout -s INT -k 10 $left ./dlbtune "$@" --db $D --devices all -v --csv >$R/$name.csv 2>$R/$name.err
	echo "== $name ($*; $left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "energy of ours" $R/$name.err) energy bursts"
	grep -E "geomean|error|wrong|fault" $R/$name.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -5
}
suite conv_fp32 230 --op conv --suite inference_server --prec fp32
suite conv_tc 600 --op conv --suite inference_server --prec fp16,int8 --layout NHWC
gzip -c $D/data.mdb | split -b 15M - $OUT/data.mdb.gz.part.  # the database, in pieces that come back
gzip -f $R/*.err; tar czf $OUT/r.tgz -C $R . && rm -rf $R
echo "== total $(( $(date +%s) - t0 )) s"
