#!/bin/bash
# Device call 142 for convolution (issue 28), 2026-12-01 (a thirteenth session). run141 found a cluster split
# costing 1.0-1.4 µs more than its k-tiles on the few-block 1x1 batch-1 rows, and cluster_cost.cu (this folder)
# put it in conv_cluster_finish: its two cluster barriers and reads over distributed shared memory cost 1.3-1.4 µs
# a launch beside plain blocks; a one-sided finish (st.async into the owner's shared memory, completing on its
# mbarrier; the cluster's arrive at the start, its wait before the first store) 0.5-0.7. The working tree's
# conv_fp16.cu has that finish (fp16 KIND 1 and 2, fp32's 3xTF32).
# PART=1: run141 again on this build (every KIND 2 candidate and split on few_blocks141.csv, verified, then timed).
#   Prediction: 0 wrong; the cluster splits (-2, -4, -8) 0.6-0.9 µs faster than run141's, the plain ones as
#   before; 7x7 c2048 k512 best about 4.8 µs (run141 5.56), 7x7 c832 k256 about 3.8 (4.14, now -4's).
# PART=2: gpu_conv fp16 (every candidate and split on the awkward shapes, cold compile).
# PART=3: gpu_conv fp32; then the 55 batch-1 rows of conv_inference_server, fp16 NHWC, default search.
# PART=4: HEAD (.gpu/hd/dlbtune) against this build on the same machine: 64x32 and 64x64 STAGES 8 KIND 2, every
#   split, on few_blocks141.csv, each build twice (hd, cf, hd, cf), the times of every variant from `db show`.
#   PART=1's plain launches ran 2-10% slower than run141's on another machine: the machine, or this build's
#   set-up (the cluster barrier's initialisation at the start)? Prediction: plain splits within 2%.
# PART=5 (PART=2 ran out of its 520 s compiling cold, the kernel cache of its temporary database lost with it): the
#   changed kernels alone, as gpu_conv runs them: every KIND 1 and 2 candidate and split (the cluster ones too)
#   on tests/conv_awkward.csv, fp16 then fp32 (3xTF32), verified, one sample each. Prediction: 0 wrong, 0 faults.
# PART=6: the batch-1 rows a cheaper cluster split could change (cluster_rows142.csv: run139's rows with a split
#   or few blocks), default search, paired with cuDNN, on the database of PART=5 (its KIND 1 and 2 kernels cached).
# One call: mkdir -p $OUT && OUT=$OUT PART=n bash docs/results/conv/run142.sh. Carry dlbtune and .gpu.
. .gpu/env.sh
d=docs/results/conv
t0=$(date +%s)
case "${PART:-1}" in
1)
	DB=/tmp/db142 OUT=$OUT bash $d/run141.sh
	;;
2)
	exec > >(tee $OUT/log.txt) 2>&1
	nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
	DLB_REQUIRE_GPU=1 GPU_CONV_PRECS=fp16 timeout ${T2:-480} sh tests/gpu_conv.sh >$OUT/gpu_conv_fp16.txt 2>&1
	echo "== gpu_conv fp16: exit $? at $(( $(date +%s) - t0 )) s"; tail -30 $OUT/gpu_conv_fp16.txt
	;;
3)
	exec > >(tee $OUT/log.txt) 2>&1
	nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
	DLB_REQUIRE_GPU=1 GPU_CONV_PRECS=fp32 timeout ${T3:-250} sh tests/gpu_conv.sh >$OUT/gpu_conv_fp32.txt 2>&1
	echo "== gpu_conv fp32: exit $? at $(( $(date +%s) - t0 )) s"; tail -8 $OUT/gpu_conv_fp32.txt
	(head -n 1 $d/batch1_speech_inference.csv; tail -n +2 $d/batch1_speech_inference.csv | awk -F, '$4 == 1') >/tmp/b1.csv
	timeout -s INT -k 10 ${T4:-300} ./dlbtune --op conv --prec fp16 --layout NHWC --suite /tmp/b1.csv -v --db /tmp/db142b \
		--csv >$OUT/batch1.csv 2>$OUT/batch1.err
	echo "== batch-1 rows: exit $? at $(( $(date +%s) - t0 )) s"
	grep -h "candidates, .* samples" $OUT/batch1.err | grep -v " 0 wrong, 0 faults" | head -5
	gzip -f $OUT/*.err
	;;
6)
	exec > >(tee $OUT/log.txt) 2>&1
	nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
	timeout -s INT -k 10 ${T7:-240} ./dlbtune --op conv --prec fp16 --layout NHWC --suite $d/cluster_rows142.csv -v \
		--db /tmp/db142_fp16 --csv >$OUT/cluster_rows.csv 2>$OUT/cluster_rows.err
	echo "== cluster_rows142.csv, default search: exit $? at $(( $(date +%s) - t0 )) s"
	grep -h "^\[" $OUT/cluster_rows.err | grep " us, vendor" | cut -c1-200
	gzip -f $OUT/*.err
	;;
5)
	exec > >(tee $OUT/log.txt) 2>&1
	nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
	for prec in fp16 fp32; do
		lim=${T5:-330}; [ $prec = fp32 ] && lim=${T6:-200}
		timeout -s INT -k 10 $lim ./dlbtune --op conv --suite tests/conv_awkward.csv --prec $prec --only 'KIND=1|KIND=2' \
			--strategy exhaustive --fixed-samples 1 --db /tmp/db142_$prec --csv -v >$OUT/wg_$prec.csv 2>$OUT/wg_$prec.err
		echo "== $prec KIND 1 and 2 on conv_awkward.csv: exit $? at $(( $(date +%s) - t0 )) s"
		echo "   $(grep -c ' ok, .* wrong, .* faults)' $OUT/wg_$prec.err) rows searched, $(grep ' ok, .* wrong, .* faults)' $OUT/wg_$prec.err | grep -vc ' ok, 0 wrong, 0 faults)') with a wrong answer or fault; cluster points: $(grep -c 'SPLITK=-' $OUT/wg_$prec.err)"
		grep -h " ok, .* wrong, .* faults)" $OUT/wg_$prec.err | sed 's/^ *//' | cut -c1-110
		grep -h "kernels: " $OUT/wg_$prec.err | tail -1
	done
	gzip -f $OUT/*.err
	;;
4)
	exec > >(tee $OUT/log.txt) 2>&1
	nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
	only='BM=64 BN=32 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2|BM=64 BN=64 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2'
	rm -rf /tmp/dbab_*
	for pass in 1 2; do
		for b in hd cf; do
			bin=./dlbtune; [ $b = hd ] && bin=.gpu/hd/dlbtune
			re=; [ $pass = 2 ] && re=--retune
			timeout -s INT -k 5 150 $bin --op conv --prec fp16 --layout NHWC --suite $d/few_blocks141.csv --only "$only" \
				--strategy exhaustive --paired 0 $re -v --db /tmp/dbab_$b --csv >$OUT/${b}_$pass.csv 2>$OUT/${b}_$pass.err
			echo "== $b pass $pass: exit $? at $(( $(date +%s) - t0 )) s; $(grep -c ' ok, 0 wrong, 0 faults)' $OUT/${b}_$pass.err) rows without a wrong answer or fault"
			tail -n +2 $d/few_blocks141.csv | while IFS=, read -r w h c n k s r pw ph sw sh; do
				echo "== ${w}x${h} c$c k$k"
				$bin db show --db /tmp/dbab_$b --op conv --prec fp16 --layout NHWC --w $w --h $h --c $c --n $n --k $k --s $s --r $r \
					--pad-w $pw --pad-h $ph --stride-w $sw --stride-h $sh --only "$only"
			done >$OUT/${b}_$pass.show 2>&1
		done
	done
	python3 - $OUT <<'PY'
import re, sys, math
o = sys.argv[1]
t = {}
for b in ("hd", "cf"):
    for p in (1, 2):
        row = None
        for line in open("%s/%s_%d.show" % (o, b, p)):
            m = re.match(r"== (\S+ c\d+ k\d+)", line)
            if m:
                row = m.group(1)
                continue
            m = re.search(r"BM=64 BN=(\d+) .*KIND=2(?: SPLITK=(-?\d+))? ok +n=\d+ +(\d+\.\d+) us", line)
            if m and row:
                key = (row, int(m.group(1)), int(m.group(2) or 1))
                t.setdefault((b, key), []).append(float(m.group(3)))
keys = sorted({k for (b, k) in t}, key=lambda k: (k[0], k[1], k[2]))
rp, rc = [], []
for k in keys:
    if ("hd", k) not in t or ("cf", k) not in t:
        continue
    a, c = min(t[("hd", k)]), min(t[("cf", k)])
    (rc if k[2] < 0 else rp).append(c / a)
    print("  %-16s BN %3d SPLITK %3d: hd %6.2f us (%s)  cf %6.2f us (%s)  cf/hd %.3f" % (k[0], k[1], k[2], a,
          " ".join("%.2f" % x for x in t[("hd", k)]), c, " ".join("%.2f" % x for x in t[("cf", k)]), c / a))
g = lambda x: math.exp(sum(map(math.log, x)) / len(x)) if x else float("nan")
print("  cf/hd geomean: plain launches (SPLITK >= 1) %.3f over %d, cluster splits %.3f over %d" % (g(rp), len(rp), g(rc), len(rc)))
PY
	(cd $OUT && tar czf ab.tgz hd_* cf_* && rm -f hd_* cf_*)
	;;
esac
