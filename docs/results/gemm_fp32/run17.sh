#!/bin/bash
# Device call 17 for issue 30: does 3xTF32 get faster if the CUDA cores add the tensor cores' partial sums
# less often? TF32_PROMOTE (templates/gemm_wgmma.cu) is the number of k-tiles summed on the tensor cores
# (scale-d 0 at the first k-step of each group) before one wgmma wait and one add into the fp32 accumulators.
# Three binaries, built alike but for its default: dlbtune (1, as before), dlbtune_p2 (2), dlbtune_p4 (2, 3, 4
# at STAGES 3, 4, 6). Each searches the 3xTF32 family alone (--only family:3xTF32, fresh database, paired with
# the strict-fp32 vendor best) on the same shapes, in turn per shape so that clocks drift alike; the CSV has
# ours, the vendor's, the paired speedup and the sampled relative error (the verification runs as always).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
shapes="4096x4096x4096:0:0 2048x2048x2048:1:0 5124x9124x2560:0:0 7680x1500x2560:0:0 1760x128x1760:0:0 1024x64x500000:0:0 4096x7000x4096:1:0"
for s in $shapes; do
	IFS=x: read m n k ta tb <<<"$s"
	for b in dlbtune dlbtune_p2 dlbtune_p4; do
		timeout 150 ./$b --op gemm --prec fp32 --m $m --n $n --k $k --ta $ta --tb $tb --only family:3xTF32 \
			--min-search 2 --power-ms 0 --db /tmp/db_$b --csv 2>$OUT/$b.$m.$n.$k.err | tail -1 | sed "s/^/$b,/" >>$OUT/all.csv
		echo "$b $s exit ${PIPESTATUS[0]} at $(( $(date +%s) - t0 )) s; $(grep -cE 'wrong' $OUT/$b.$m.$n.$k.err) lines with 'wrong'"
	done
done
python3 - $OUT/all.csv <<'PY'
import csv, sys
hdr = "bin,m,n,k,layout,prec,best_config,kernel_family,tuned_us".split(",")
for line in open(sys.argv[1]):
    r = next(csv.reader([line]))
    print("%-11s %5s %5s %6s %s %-70s ours %9s us  paired %s  rel err %s" % (r[0], r[1], r[2], r[3], r[4], r[6][:70], r[8], r[25], r[42]))
PY
gzip $OUT/*.err
echo "== total $(( $(date +%s) - t0 )) s"
