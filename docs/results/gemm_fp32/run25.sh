#!/bin/bash
# Device call 25 for issue 30: ASPLIT with A read once per depth range (A_KEEP, where MI = 1): the producer copies
# A's tile with the first of the range's three k-tiles only, and each consumer keeps the values in registers and
# makes all three parts from them (run21-22 read and copied A once per k-tile, three times a range). Every 3xTF32
# candidate on gpu_gemm_verify's awkward shapes; then the ASPLIT family (WGS 2 and 1 alike: --only ASPLIT=1) per
# shape with this build (dlbtune) and the one before (dlbtune_old, the commit before A_KEEP), in turn.
# Outcome (one H200): 0 wrong, but 2-6% slower on six of seven shapes; not kept (the change: logs/run25/a_keep.diff).
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY="KIND=1" timeout -k 5 200 ./tests/gpu_gemm_verify fp32 >$OUT/verify.log 2>&1
echo "== gpu_gemm_verify fp32, KIND=1: exit $? in $(( $(date +%s) - t0 )) s"
grep -E "wrong|refereed|self-test|FAIL" $OUT/verify.log | tail -6 | cut -c1-200
shapes="4096x128x4096:0:0 4096x128x4096:1:0 2560x128x2560:0:0 7680x64x2560:1:0 1760x128x1760:0:0 8448x32x2816:0:0 4096x4096x4096:0:0"
for s in $shapes; do
	IFS=x: read m n k ta tb <<<"$s"
	for b in dlbtune dlbtune_old; do
		timeout 100 ./$b --op gemm --prec fp32 --m $m --n $n --k $k --ta $ta --tb $tb --only "ASPLIT=1" \
			--min-search 2 --power-ms 0 --db /tmp/db_$b --csv 2>$OUT/$b.$m.$n.$k.$ta.err | tail -1 | sed "s/^/$b,/" >>$OUT/all.csv
		echo "$b $s exit ${PIPESTATUS[0]} at $(( $(date +%s) - t0 )) s"
	done
done
python3 - $OUT/all.csv <<'PY'
import csv, sys
for line in open(sys.argv[1]):
    r = next(csv.reader([line]))
    print("%-11s %5s %5s %6s %s %-62s ours %9s us vendor %9s  paired %s  rel err %s" % (r[0], r[1], r[2], r[3], r[4], r[6][:62], r[8], r[24], r[25], r[42]))
PY
gzip $OUT/verify.log
tar czf $OUT/errs.tgz -C $OUT $(cd $OUT && ls *.err) && rm $OUT/*.err
echo "== total $(( $(date +%s) - t0 )) s"
