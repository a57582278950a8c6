#!/bin/bash
# Device call 1 for the report (issue 31), on a 4-GPU machine (--devices all): DeepBench's GEMM
# inference_server suite in fp32, fp16 and int8, then the sparse inference suite (fp32), with the default
# search, pairs and 500 ms energy bursts (NVML). The database (without its kernel cache) comes back for
# `dlbtune report`. (As run, the CSVs and logs were packed with the database into one file too large to come
# back: only log.txt and, by a second call, the database came back; this is the script with that fixed.)
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
R=$OUT/r; mkdir -p $R  # packed into $OUT/r.tgz at the end (few files come back)
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit,power.draw --format=csv,noheader
t0=$(date +%s) D=/tmp/dbr
suite() { # name, seconds at most, then the arguments
	local name=$1 most=$2; shift 2
	local s=$(date +%s) left=$(( 575 - ($(date +%s) - t0) ))
	[ $left -gt $most ] && left=$most
	timeout -s INT -k 10 $left ./dlbtune "$@" --db $D --devices all -v --csv >$R/$name.csv 2>$R/$name.err
	echo "== $name ($*; $left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "energy of ours" $R/$name.err) energy bursts"
	grep -E "geomean|error|wrong|fault" $R/$name.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -5
}
suite gemm 470 --op gemm --suite inference_server --prec fp32,fp16,int8
suite spmm 200 --op spmm --suite inference_server
gzip -c $D/data.mdb | split -b 15M - $OUT/data.mdb.gz.part.  # the database, in pieces that come back
gzip -f $R/*.err; tar czf $OUT/r.tgz -C $R . && rm -rf $R
echo "== total $(( $(date +%s) - t0 )) s"
