#!/bin/bash
# Device call 19 for issue 30 (ran 2026-11-27, one H200, 50 s; the overlap was slower and was taken out, NOTES item 86): 3xTF32 with two sums in turn (TF32_OVERLAP 1, NOTES item 86): the next group of
# k-tiles is issued into one sum while the group before it, in the other, is waited for and added. Two
# binaries built alike but for TF32_OVERLAP: dlbtune (0: the default, TF32_PROMOTE 2) and dlbtune_ov (1).
# 1. gpu_gemm_verify_ov: every 3xTF32 candidate of the overlap build on the 14 awkward shapes, 4 layouts.
# 2. As run17: the 3xTF32 family alone, per shape each binary in turn, fresh databases, paired speedups.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
export DLB_REQUIRE_GPU=1
DLB_VERIFY_ONLY="KIND=1 KS=1 KU=4 L2PF=0" timeout 200 tests/gpu_gemm_verify_ov fp32 2>&1 | grep -vE "^ok" | cut -c1-300 | tail -12
echo "== verify $(( $(date +%s) - t0 )) s"
shapes="4096x4096x4096:0:0 2048x2048x2048:1:0 5124x9124x2560:0:0 7680x1500x2560:0:0 1760x128x1760:0:0 1024x64x500000:0:0 4096x7000x4096:1:0 3072x3000x1024:0:0"
for s in $shapes; do
	IFS=x: read m n k ta tb <<<"$s"
	for b in dlbtune dlbtune_ov; do
		timeout 150 ./$b --op gemm --prec fp32 --m $m --n $n --k $k --ta $ta --tb $tb --only family:3xTF32 \
			--min-search 2 --power-ms 0 --db /tmp/db_$b --csv 2>>$OUT/$b.err | tail -1 | sed "s/^/$b,/" >>$OUT/all.csv
		echo "$b $s exit ${PIPESTATUS[0]} at $(( $(date +%s) - t0 )) s"
	done
done
python3 - $OUT/all.csv <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
d = {}
for r in rows:
    d[(r[1], r[2], r[3], r[4], r[0])] = r
    print("%-11s %5s %5s %6s %s %-72s ours %9s us  paired %s  rel err %s" % (r[0], r[1], r[2], r[3], r[4], r[6][:72], r[8], r[25], r[42]))
for key in sorted({k[:4] for k in d}):
    a, b = d.get(key + ("dlbtune",)), d.get(key + ("dlbtune_ov",))
    if a and b and a[25] and b[25]:
        print("%sx%sx%s %s: paired, overlap over default %.3f" % (key + (float(b[25]) / float(a[25]),)))
PY
grep -iE "wrong|fault" $OUT/*.err | grep -v " 0 wrong, 0 faults" | head -5
gzip $OUT/*.err
echo "== total $(( $(date +%s) - t0 )) s"
