#!/bin/bash
# Device call 51 for issue 30, prepared 2026-11-29 (not run): two checks on 4c716e3 (3xTF32's ASPLIT 2 the search's
# usual winner) that run50 did not make.
# 1. The accuracy table again (run18's: 1024x128xK for K = 128, 4096, 65536, 500000, and 2048^3; each searched with
#    the 3xTF32 family alone and with --fp32-math ffma; error at 16 sampled outputs against the exact sum in
#    double, beside cuBLAS strict fp32's best and cuBLAS TF32). ASPLIT 2 sums a k-tile's three products before
#    promoting them; run49 saw its error 0.6-0.8x ASPLIT 0's at K 2048-4096. Prediction: within 2x of cuBLAS
#    strict fp32's at every K (the issue's rule), and no worse than run18's 3xTF32 column at K = 500000.
# 2. gemm_inference_server with --fp32-math ffma on this build (1.085x on earlier builds, run30/33), every row on
#    one GPU (run46.sh HALF=all).
# Build: make; carry dlbtune, .gpu/env.sh, .gpu/lib.
. .gpu/env.sh
exec > >(tee $OUT/log51.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
acc() { # M N K
	for r in "--only family:3xTF32" "--fp32-math ffma"; do
		timeout 100 ./dlbtune --op gemm --prec fp32 --m $1 --n $2 --k $3 $r --min-search 2 --power-ms 0 \
			--db /tmp/acc --csv >/dev/null 2>>$OUT/acc.err || echo "$1x$2x$3 $r: exit $?"
	done
}
for k in 128 4096 65536 500000; do acc 1024 128 $k; done
acc 2048 2048 2048
echo "== accuracy runs $(( $(date +%s) - t0 )) s"
for r in "--only family:3xTF32" "--fp32-math ffma"; do ./dlbtune export --format json --db /tmp/acc $r; done >$OUT/acc.json 2>/dev/null
# the table's printer is run18's
python3 - $OUT/acc.json < <(sed -n '/^python3 - \$OUT\/acc.json <<.PY.$/,/^PY$/p' docs/results/gemm_fp32/run18.sh | sed '1d;$d')
gzip $OUT/acc.err
MATH=ffma HALF=all END=$(( 540 - ($(date +%s) - t0) )) bash docs/results/gemm_fp32/run46.sh inference_server
echo "== total $(( $(date +%s) - t0 )) s"
