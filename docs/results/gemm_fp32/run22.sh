#!/bin/bash
# Device call 22 for issue 30: ASPLIT 1 reading A stored 'n' directly (gemm_wgmma.cu's gemm_nn: A's tiles copied
# M-major, a_mn_load, and its wgmma fragments read from that layout; where M % 4 == 0 and K % 32 == 0), so the
# NN and NT rows lose their K-major copy of A too. Every 3xTF32 candidate on gpu_gemm_verify's awkward fp32
# shapes; gpu_sass (sass_ops' opcodes against nvdisasm, now on every 3xTF32 GEMM cubin: wgmma with A from
# registers has its own opcode); then per NN shape the family with ASPLIT 1 alone and ASPLIT 0 alone, as run21.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY="KIND=1" timeout -k 5 240 ./tests/gpu_gemm_verify fp32 >$OUT/verify.log 2>&1
echo "== gpu_gemm_verify fp32, KIND=1: exit $? in $(( $(date +%s) - t0 )) s"
grep -E "wrong|WRONG|refereed|self-test|summary|passed|failed|FAIL" $OUT/verify.log | tail -12 | cut -c1-200
t1=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 sh ./tests/gpu_sass.sh >$OUT/sass.log 2>&1
echo "== gpu_sass: exit $? in $(( $(date +%s) - t1 )) s"
tail -4 $OUT/sass.log
# (--only keeps 63 characters: WGS 2 alone for both, which every 3xTF32 winner of run20 had)
a0="2 STAGES=3 ASPLIT=0|2 STAGES=4 ASPLIT=0|2 STAGES=6 ASPLIT=0"
a1="2 STAGES=3 ASPLIT=1|2 STAGES=4 ASPLIT=1|2 STAGES=6 ASPLIT=1"
shapes="4096x128x4096:0:0 2560x128x2560:0:0 7680x64x2560:0:0 1760x128x1760:0:0 8448x32x2816:0:0 4096x64x4096:0:1 4096x4096x4096:0:0"
for s in $shapes; do
	IFS=x: read m n k ta tb <<<"$s"
	for v in 1 0; do
		[ $v = 1 ] && only="$a1" || only="$a0"
		timeout 120 ./dlbtune --op gemm --prec fp32 --m $m --n $n --k $k --ta $ta --tb $tb --only "$only" \
			--min-search 2 --power-ms 0 --db /tmp/db_a$v --csv 2>$OUT/a$v.$m.$n.$k.$ta$tb.err | tail -1 | sed "s/^/ASPLIT$v,/" >>$OUT/all.csv
		echo "ASPLIT $v $s exit ${PIPESTATUS[0]} at $(( $(date +%s) - t0 )) s"
	done
done
python3 - $OUT/all.csv <<'PY'
import csv, sys
for line in open(sys.argv[1]):
    r = next(csv.reader([line]))
    print("%-7s %5s %5s %6s %s %-62s ours %9s us vendor %9s  paired %s  rel err %s" % (r[0], r[1], r[2], r[3], r[4], r[6][:62], r[8], r[24], r[25], r[42]))
PY
gzip $OUT/verify.log $OUT/sass.log
tar czf $OUT/errs.tgz -C $OUT $(cd $OUT && ls *.err) && rm $OUT/*.err
echo "== total $(( $(date +%s) - t0 )) s"
