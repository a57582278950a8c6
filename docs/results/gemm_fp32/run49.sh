#!/bin/bash
# Device call 49 for issue 30, run 2026-11-29 (one H200, logs/run49; landed as 4c716e3): 3xTF32 with two-part copies (ASPLIT 2,
# pair_split.diff, now in 4c716e3). The three-part copies make the kernel copy 3 (BM + BN) lines of 128
# bytes into shared memory per k-tile of depth; at 128x128 tiles that is 32 FLOP a byte, and the large shapes run
# at about 254 TFLOP/s of TF32 (4096^3: 1620 us), about 7.9 TB/s out of L2: the rate fp16's best wgmma kernels
# reach (128x256 tiles, 700 TFLOP/s). ASPLIT 2 copies each operand as two parts (big, small) interleaved a k-tile
# at a time; a stage holds both parts of both operands and its consumers issue the three products from them: 2 (BM
# + BN) lines a k-tile (49 FLOP a byte), and the split pass writes 8 bytes an element where it wrote 12. The sums
# are the same products in a different order (a k-tile's three at a time, small terms first), one promotion into
# the fp32 accumulators a k-tile.
# Build (then): git apply pair_split.diff (git show 1e6c68d); make; make check TESTS=; cp dlbtune tests/gpu_gemm_verify
# .gpu/pair/ (a build of 5748205 + the diff is there from 2026-11-29); carry .gpu/env.sh, .gpu/lib, .gpu/pair.
# (1) gpu_gemm_verify fp32 on every ASPLIT 2 candidate (the 14 awkward shapes x 4 layouts, every split).
# (2) Per shape, the 3xTF32 family with ASPLIT 0 alone, then ASPLIT 2 alone (same binary, fresh databases,
# --min-search 2): ours, paired with the strict vendor, the sampled relative error.
# Prediction: ASPLIT 2 1.15-1.4x faster on the large shapes (the L2 bound 33% lower), 5-15% on the M = 512 rows;
# the error within 1.5x of ASPLIT 0's.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY="ASPLIT=2" timeout -k 5 ${VERIFY_S:-150} .gpu/pair/gpu_gemm_verify fp32 >$OUT/verify.log 2>&1
echo "== gpu_gemm_verify fp32 ASPLIT=2: exit $? at $(( $(date +%s) - t0 )) s"
grep -E "wrong|passed|failed" $OUT/verify.log | tail -3
old='STAGES=4 ASPLIT=0|STAGES=6 ASPLIT=0|KIND=1 KS=1 KU=4 L2PF=0 WGS=1 STAGES=3 ASPLIT=0|KIND=1 KS=1 KU=4 L2PF=0 WGS=2 STAGES=3 ASPLIT=0'
shapes=${SHAPES:-"512x1500x2048:0:0 512x3000x2816:0:0 1024x1500x2816:0:0 5124x700x2048:0:0 2048x2048x2048:1:0 7680x1500x2560:0:0 4096x4096x4096:0:0 5124x9124x2560:0:0"}
for s in $shapes; do
	IFS=x: read m n k ta tb <<<"$s"
	for a in 0 2; do
		only=$old; [ $a = 2 ] && only='ASPLIT=2'
		timeout -s INT -k 5 ${SHAPE_S:-60} .gpu/pair/dlbtune --op gemm --prec fp32 --m $m --n $n --k $k --ta $ta --tb $tb \
			--only "$only" --min-search 2 --db /tmp/db_a$a --csv 2>>$OUT/ab.err | sed "s/^/$a,/" >>$OUT/ab.csv
	done
	[ $(( $(date +%s) - t0 )) -gt ${STOP_S:-100000} ] && { echo "== STOP_S reached after $s"; break; }
done
python3 - $OUT/ab.csv <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr = None
for r in rows:
    if r[1] == "m":
        hdr = r[1:]
        continue
    d = dict(zip(hdr, r[1:]))
    err = d.get("rel_err_max", d.get("tuned_rel_err_max", "?"))
    print("ASPLIT %s %5s %5s %5s %s %-60s %9s us  paired %s  err %s" % (r[0], d["m"], d["n"], d["k"], d["layout"],
          d["best_config"].replace("BK=32 TM=4 TN=2 KIND=1 KS=1 KU=4 L2PF=0 ", ""), d["tuned_us"], d["paired_speedup"], err))
PY
gzip $OUT/ab.err
echo "== total $(( $(date +%s) - t0 )) s"
