#!/bin/bash
# Device call 78 (issue 28; NOTES item 87): conv's 3xTF32 wgmma kernels (conv_fp16.cu with TF32 1) sum two
# k-tiles on the tensor cores before the CUDA cores add them (TF32_PROMOTE, as GEMM's 3xTF32 in item 85), where
# the ring has more than two stages. Two binaries built alike but for that: dlbtune_base (one k-tile a group)
# and dlbtune. Each searches the 3xTF32 families alone (--only family:3xTF32, fresh database, NCHW, paired with
# cuDNN's better strict-fp32 choice) on the inference_server rows 3xTF32 won in the report's run09 and two
# training rows, shape by shape in turn. Then tests/gpu_conv.sh in fp32: every candidate on the awkward shapes.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
shapes="341:79:32:4:32:5:10:0:0:2:2 84:20:256:2:512:5:5:1:1:2:2 175:40:128:2:256:5:5:1:1:2:2 350:80:64:2:128:5:5:1:1:2:2
350:80:64:2:64:3:3:1:1:1:1 42:10:512:2:512:3:3:1:1:1:1 112:112:64:2:128:3:3:1:1:1:1 84:20:256:2:256:3:3:1:1:1:1
28:28:256:16:512:3:3:1:1:1:1 112:112:64:8:128:3:3:1:1:1:1"
for sh in $shapes; do
	IFS=: read w h c n k r s pw ph sw sh2 <<<"$sh"
	for b in dlbtune_base dlbtune; do
		timeout 120 ./$b --op conv --prec fp32 --w $w --h $h --c $c --n $n --k $k --r $r --s $s --pad-w $pw --pad-h $ph \
			--stride-w $sw --stride-h $sh2 --only family:3xTF32 --min-search 2 --power-ms 0 --db /tmp/db_$b --csv \
			2>>$OUT/$b.err | tail -1 | sed "s/^/$b,/" >>$OUT/all.csv
		echo "$b $sh exit ${PIPESTATUS[0]} at $(( $(date +%s) - t0 )) s"
	done
done
python3 - $OUT/all.csv <<'PY'
import csv, sys
# columns (1-based in dlbtune's conv CSV, +1 here for the binary): best_config 18, kernel_family 19, tuned_us 20,
# paired_speedup 43, verified 59, rel_err_max 60
d = {}
for r in csv.reader(open(sys.argv[1])):
    d.setdefault(tuple(r[1:12]), {})[r[0]] = r
for key, v in d.items():
    a, b = v.get("dlbtune_base"), v.get("dlbtune")
    if not (a and b): continue
    print("%-34s base %8s us paired %6s | new %8s us paired %6s | new/base paired %.3f | %s | err %s %s" % (
        "x".join(key[:7]), a[20], a[43], b[20], b[43], float(b[43]) / float(a[43]), b[18][:64], a[60], b[60]))
PY
left=$(( 560 - ($(date +%s) - t0) ))
echo "== gpu_conv fp32 (every candidate on the awkward shapes), $left s"
DLB_REQUIRE_GPU=1 GPU_CONV_PRECS=fp32 top_srcdir=. top_builddir=. timeout $left sh tests/gpu_conv.sh >$OUT/gpu_conv.txt 2>&1
echo "gpu_conv exit $?"; tail -5 $OUT/gpu_conv.txt
gzip $OUT/*.err $OUT/gpu_conv.txt
echo "== total $(( $(date +%s) - t0 )) s"
