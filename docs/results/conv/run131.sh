#!/bin/bash
# Device call 131 (issues 28 and 30's tensor-map code), 2026-12-01 (a ninth session).
# PART=1: the refactor of docs/NOTES.md item 213 (dlb_tmap_2d now calls dlb_tmap_tiled with rank 2 instead of
#   repeating its encode call; the same arguments reach cuTensorMapEncodeTiled) on the kernels that use each map:
#   - gpu_gemm_verify fp16 and int8, the copy-engine candidates (TMA 1-3: dlb_tmap_2d through gemm_tc.c's
#     tc_tmap), the first 6 shapes in all four layouts;
#   - conv fp16 KIND 2 (im2col map for x, dlb_tmap_2d for w, and dlb_tmap_2d for x in the 1x1 X2D cubins) on
#     conv_awkward.csv's NHWC rows, every candidate and split (exhaustive, one sample);
#   - conv fp16 KIND 5 (dlb_tmap_tiled, ranks 4 and 3) on conv_halo.csv, every candidate.
#   Must pass: 0 wrong, 0 errors, every row verified.
#   Then the training suite's 16 speech rows, fp16 NHWC, default search (speech_training.csv), on this build
#   (run104 on 4e2025f: 1.271x; every fp16 change since, KIND 5 and the staged stores among them, untimed there).
# mkdir -p $OUT && OUT=$OUT PART=1 bash docs/results/conv/run131.sh. Build here: HEAD (make), bundle
# (../shared/gpu/bundle .gpu ./dlbtune), carry dlbtune, .gpu and tests/gpu_gemm_verify.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
t0=$(date +%s)
mkdir -p $OUT/p1
DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY='TMA=1|TMA=2|TMA=3' DLB_VERIFY_SHAPES=6 timeout 200 tests/gpu_gemm_verify fp16 int8 \
	>$OUT/p1/gemm_verify_tma.txt 2>&1
echo "== gpu_gemm_verify fp16 int8 TMA 1-3: exit $? at $(( $(date +%s) - t0 )) s"; grep -E "candidates on|wrong" $OUT/p1/gemm_verify_tma.txt | tail -4
awk -F, 'NR == 1 || $14 == "NHWC"' tests/conv_awkward.csv >/tmp/awk_nhwc.csv
n=$(($(wc -l </tmp/awk_nhwc.csv) - 1))
timeout 200 ./dlbtune --op conv --suite /tmp/awk_nhwc.csv --prec fp16 --only 'KIND=2' --strategy exhaustive --fixed-samples 1 \
	--paired 0 --db /tmp/db131a -v --csv >$OUT/p1/k2_awkward.csv 2>$OUT/p1/k2_awkward.err
echo "== conv fp16 KIND 2 on $n NHWC awkward rows: exit $? at $(( $(date +%s) - t0 )) s; $(grep -c ' ok, 0 wrong, 0 faults)' $OUT/p1/k2_awkward.err) rows without a wrong answer or fault; rows with a wrong answer or fault: $(grep ' ok, .* wrong, .* faults)' $OUT/p1/k2_awkward.err | grep -vc ' ok, 0 wrong, 0 faults)')"
grep -h "kernels:" $OUT/p1/k2_awkward.err | tail -1
n5=$(($(wc -l <tests/conv_halo.csv) - 1))
timeout 120 ./dlbtune --op conv --suite tests/conv_halo.csv --prec fp16 --only 'KIND=5' --strategy exhaustive --fixed-samples 1 \
	--paired 0 --db /tmp/db131b -v --csv >$OUT/p1/k5_halo.csv 2>$OUT/p1/k5_halo.err
echo "== conv fp16 KIND 5 on $n5 halo rows: exit $? at $(( $(date +%s) - t0 )) s; $(grep -c ' ok, 0 wrong, 0 faults)' $OUT/p1/k5_halo.err) rows without a wrong answer or fault"
timeout 300 ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/speech_training.csv -v --db /tmp/db131c --csv \
	>$OUT/p1/speech_training_fp16.csv 2>$OUT/p1/speech_training_fp16.err
echo "== speech training fp16 NHWC, default search: exit $? at $(( $(date +%s) - t0 )) s"
python3 - $OUT/p1/speech_training_fp16.csv <<'PY'
import csv, math, sys
r = list(csv.DictReader(open(sys.argv[1])))
p = [float(x['paired_speedup']) for x in r if x.get('paired_speedup')]
print(f"  {len(r)} rows, {sum(x['verified'] == '1' for x in r)} verified, paired geomean {math.exp(sum(map(math.log, p)) / len(p)):.3f}")
PY
gzip -f $OUT/p1/*.err
tar czf $OUT/p1.tgz -C $OUT p1 && rm -rf $OUT/p1
