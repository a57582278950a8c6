#!/bin/bash
# Device call 10 for the report (issue 31; ran 2026-11-27, 305 s), run07 again with graphed bursts, on run09's 4-GPU machine while it is still held (--devices all): the
# rest of run09's conv fp32 suite if run09 left some (its database is still there), then the conv suite in fp16
# and int8, NHWC (cuDNN's int8 needs it). The default search but for --min-search 2, pairs, 500 ms ABBA
# bursts. Each row's implied watts (watts.py); the database comes back (and run09's again if it grew here).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
R=$OUT/r; mkdir -p $R  # packed into $OUT/r.tgz at the end (few files come back)
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit,power.draw --format=csv,noheader
t0=$(date +%s) D=/tmp/db10
suite() { # name, seconds at most, then the arguments
	local name=$1 most=$2; shift 2
	local s=$(date +%s) left=$(( 565 - ($(date +%s) - t0) ))
	[ $left -gt $most ] && left=$most
	timeout -s INT -k 10 $left ./dlbtune "$@" --db $D --devices all --min-search 2 -v --csv >$R/$name.csv 2>$R/$name.err
	echo "== $name ($*; $left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "energy of ours" $R/$name.err) energy lines"
	grep -E "geomean|error|wrong|fault" $R/$name.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
}
if [ -f /tmp/db9/data.mdb ]; then # run09's machine: resume its conv fp32 suite there (what it finished is answered)
	D=/tmp/db9 suite conv_fp32 120 --op conv --suite inference_server --prec fp32
else
	echo "== run09's database is not here (a fresh machine): its conv fp32 suite stays as it came back"
fi
suite conv_tc 560 --op conv --suite inference_server --prec fp16,int8 --layout NHWC
./dlbtune export --format json --db $D 2>/dev/null | python3 docs/results/report/watts.py
gzip -c $D/data.mdb | split -b 15M - $OUT/data.mdb.gz.part.
[ -f $R/conv_fp32.err ] && gzip -c /tmp/db9/data.mdb | split -b 15M - $OUT/db9.mdb.gz.part.
gzip -f $R/*.err; tar czf $OUT/r.tgz -C $R . && rm -rf $R
echo "== total $(( $(date +%s) - t0 )) s"
