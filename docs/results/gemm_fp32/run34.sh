#!/bin/bash
# Device call 34 for issue 30: does the cp.async ring (KIND 3 of run32, not kept) make the large tiles pay? Each
# configuration alone (--only, in full) on 5124x9124x2560 NN and 4096x7133x4096 NT, on one GPU, in turn:
# .gpu/dlbtune_k3 (8a16671 with logs/run32/kind3.diff applied) for the KIND 3 tiles, this build for KIND 0's
# best (128x64 BK16 8x8) as the reference. Prediction: 256x128 BK8 8x16 with a 3-4 stage ring near cuBLAS's
# 69.5% (NN) and 80% (NT) of peak, where without the ring it ran at 55.7% (run31).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
mkdir -p $OUT/cfg
for shape in "5124 9124 2560 0 0" "4096 7133 4096 0 1"; do
	read m n k ta tb <<<"$shape"
	echo "== ${m}x${n}x${k} ta $ta tb $tb"
	for c in "dlbtune:BM=128 BN=64 BK=16 TM=8 TN=8 KIND=0" \
		".gpu/dlbtune_k3:6 BN=128 BK=8 TM=8 TN=16 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=3" \
		".gpu/dlbtune_k3:6 BN=128 BK=8 TM=8 TN=16 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=4" \
		".gpu/dlbtune_k3:BN=128 BK=16 TM=8 TN=16 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=3" \
		".gpu/dlbtune_k3:8 BN=128 BK=8 TM=8 TN=16 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=4" \
		".gpu/dlbtune_k3:6 BN=64 BK=8 TM=8 TN=16 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=4" \
		".gpu/dlbtune_k3:8 BN=64 BK=16 TM=8 TN=8 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=3" \
		".gpu/dlbtune_k3:8 BN=64 BK=8 TM=8 TN=8 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=4"; do
		b=${c%%:*} cfg=${c#*:}
		f=$OUT/cfg/$m.$(echo "$cfg" | cut -c1-60 | tr ' =' '_-')
		CUDA_VISIBLE_DEVICES=0 timeout 60 ./$b --op gemm --prec fp32 --m $m --n $n --k $k --ta $ta --tb $tb \
			--only "$cfg" --power-ms 0 --db /tmp/db_$(basename $b) --csv >$f.csv 2>$f.err
		rc=$?
		python3 - "$f.csv" "$rc" <<'PY'
import csv, sys
n = 0
for r in csv.DictReader(open(sys.argv[1])):
    n += 1
    print("  %-62s ours %9s us %6s%% peak, paired vendor %9s us, paired %s" % (r["best_config"][:62], r["tuned_us"],
          r["pct_peak"], r["paired_vendor_us"], r["paired_speedup"]))
if not n:
    print("  (no row; exit %s)" % sys.argv[2])
PY
	done
done
grep -h "wrong\|error" $OUT/cfg/*.err | grep -v " 0 wrong" | head -5
tar czf $OUT/cfg.tgz -C $OUT cfg && rm -r $OUT/cfg
echo "== total $(( $(date +%s) - t0 )) s"
