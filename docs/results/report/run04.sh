#!/bin/bash
# Device call 4 for the report (issue 31), on a 4-GPU machine (--devices all): run01 and the fp32 part of run02
# again with the energy poller as fixed after run01-03 (the counter alone read every 1 ms, each read timed, a
# step's moment the middle of the reads around it; no CUDA call from the poller; ABBA bursts): DeepBench's GEMM
# inference_server suite in fp32, fp16 and int8, the sparse suite, and the conv suite in fp32 NCHW. Default
# search, pairs, 500 ms bursts. Ends with each row's implied watts (watts.py); the database comes back.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
R=$OUT/r; mkdir -p $R  # packed into $OUT/r.tgz at the end (few files come back)
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit,power.draw --format=csv,noheader
t0=$(date +%s) D=/tmp/db4
suite() { # name, seconds at most, then the arguments
	local name=$1 most=$2; shift 2
	local s=$(date +%s) left=$(( 570 - ($(date +%s) - t0) ))
	[ $left -gt $most ] && left=$most
	timeout -s INT -k 10 $left ./dlbtune "$@" --db $D --devices all -v --csv >$R/$name.csv 2>$R/$name.err
	echo "== $name ($*; $left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "energy of ours" $R/$name.err) energy lines"
	grep -E "geomean|error|wrong|fault" $R/$name.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
}
suite gemm 340 --op gemm --suite inference_server --prec fp32,fp16,int8
suite spmm 60 --op spmm --suite inference_server
suite conv_fp32 200 --op conv --suite inference_server --prec fp32
./dlbtune export --format json --db $D 2>/dev/null | python3 docs/results/report/watts.py
gzip -c $D/data.mdb | split -b 15M - $OUT/data.mdb.gz.part.  # the database, in pieces that come back
gzip -f $R/*.err; tar czf $OUT/r.tgz -C $R . && rm -rf $R
echo "== total $(( $(date +%s) - t0 )) s"
