#!/bin/bash
# Device call 9 for the report (issue 31), on a 4-GPU machine (--devices all): run06 again now that energy
# bursts run as CUDA graphs (run08: cuDNN's bursts no longer host-bound). Ran 2026-11-27 on nvidia-h200-x4 (496 s). run06's notes: run05 again after its gate
# stopped it (11 of 24 sparse rows with energy: SpMV bursts ran 0.24 s for 0.5 s asked; now a burst runs for
# its wall time, and a side's joules come from those of its two bursts that were steady). The sparse suite first,
# as a gate: unless 3/4 of its rows have both energies, nothing else runs. Then DeepBench's GEMM
# inference_server suite in fp32, fp16 and int8, and the conv suite in fp32 NCHW (run10 resumes it on the same
# machine if time runs out). The default search but for --min-search 2 (3 by default: this session's device
# time), pairs, 500 ms ABBA bursts.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
R=$OUT/r; mkdir -p $R  # packed into $OUT/r.tgz at the end (few files come back)
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit,power.draw --format=csv,noheader
t0=$(date +%s) D=/tmp/db9
suite() { # name, seconds at most, then the arguments
	local name=$1 most=$2; shift 2
	local s=$(date +%s) left=$(( 565 - ($(date +%s) - t0) ))
	[ $left -gt $most ] && left=$most
	timeout -s INT -k 10 $left ./dlbtune "$@" --db $D --devices all --min-search 2 -v --csv >$R/$name.csv 2>$R/$name.err
	echo "== $name ($*; $left s): exit $? in $(( $(date +%s) - s )) s; $(grep -c "energy of ours" $R/$name.err) energy lines"
	grep -E "geomean|error|wrong|fault" $R/$name.err | grep -v " 0 wrong, 0 faults" | cut -c1-220 | tail -4
}
suite spmm 60 --op spmm --suite inference_server
if ./dlbtune export --format json --db $D 2>/dev/null | python3 docs/results/report/watts.py 0.75; then
	suite gemm 320 --op gemm --suite inference_server --prec fp32,fp16,int8
	suite conv_fp32 250 --op conv --suite inference_server --prec fp32
	./dlbtune export --format json --db $D 2>/dev/null | python3 docs/results/report/watts.py
fi
gzip -c $D/data.mdb | split -b 15M - $OUT/data.mdb.gz.part.  # the database, in pieces that come back
gzip -f $R/*.err; tar czf $OUT/r.tgz -C $R . && rm -rf $R
echo "== total $(( $(date +%s) - t0 )) s"
