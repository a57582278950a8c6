#!/bin/bash
# Device calls 114 for convolution (issue 28), prepared 2026-11-30 (a later session), run 2026-11-30 (a third session;
# results in README.md and docs/NOTES.md items 182-183; next_producer_step.diff and next_producer_two.diff landed, so
# "base" is now the landed build's parent, a3aec26).
# Where does our 64x64 wgmma tile wait? On 28x28 c256 k512 3x3 n1 (NHWC fp16) BM 64 BN 64 STAGES 8 KIND 2 without a
# split takes 13.26 us, cuDNN's kernel with the same tile and grid (104 blocks) about 11.5 in the harness; per k-tile
# (36 of 64) ours spends about 500 cycles where the tensor cores need 128, and 128x128 with two consumer warpgroups
# about 740 for four times the work (run112, docs/NOTES.md item 175). Multicast (fewer L2 reads) and 12 stages
# (more in flight) made it slower, so neither L2 nor the load latency is the bound.
# ncu's source page (stall samples per SASS instruction) of that launch, then of cuDNN's
# sm90_xmma_fprop_..._tilesize64x64x64 on the same row, and their warp states and speed of light.
# Prediction: ours' consumer samples mostly on the full barrier's wait (SYNCS...TRYWAIT, "long/short scoreboard" or
# "barrier"), the data arriving a stage every ~500 cycles: then the producer's loop (one thread: the empty
# barrier's wait, the divisions that turn k into (r, s, c), expect_tx and two copies a k-tile) or the copy
# engine's im2col rate is the bound, and the next change is a producer with the coordinates stepped (no
# divisions) and the two copies from two threads. If the samples sit on WARPGROUP.DEPBAR or HGMMA instead, the
# consumer's chain of 4 dependent wgmmas a k-tile is, and the next change splits k-tiles between two consumer
# warpgroups (as cuDNN's 384 threads might).
# next_producer_step.diff (prepared with this script): the KIND 2 producer's tap and channel stepped by BK after each
# copy instead of divided out of k (two divisions by runtime values a k-tile): its loop 109 -> 74 SASS
# instructions in 64x64 STAGES 8's NHWC8 kernel, one thread issuing them, in order, between its empty wait and
# the two copies; same (r, s, c) as the divisions (checked in Python over C 1-1000, S 1-10, splits); 102
# registers as before, no spill in the 18 largest KIND 2 kernels.
# next_wg_inflight.diff (prepared with it; NOTES item 178): the wgmma consumers wait for k-tile t - 2's group, not
#   t - 1's, where STAGES >= 4 (wait_group 2, two stages held), so a group is always queued behind the one running
#   while the next is issued. No spill (64x64 102 registers, 128x128 and 128x256 168, every STAGES).
# next_producer_two.diff (on top of the step diff; NOTES item 181): NPROD 2, lane 0 of the producer's first two
#   warps taking the ring's k-tiles in turn, so two instruction streams issue the copies.
# Build here: make on HEAD, mkdir -p .gpu/cbase && cp dlbtune .gpu/cbase/ (the base); then
#   git apply docs/results/conv/next_producer_step.diff && make && mkdir -p .gpu/cstep && cp dlbtune .gpu/cstep/;
#   git apply docs/results/conv/next_producer_two.diff && make && mkdir -p .gpu/ctwo && cp dlbtune .gpu/ctwo/;
#   git apply docs/results/conv/next_wg_inflight.diff && make (./dlbtune: all three); bundle; carry dlbtune, .gpu.
# PART=0 (about 250 s): gpu_conv fp32 on BIN (default .gpu/cbase/dlbtune, the landed build): conv fp32's 3xTF32
#   kernels are conv_fp16.cu's wgmma body with TF32 1, so e00abec's first_tile changed them too, and 2026-11-30's
#   device time ran out before them. Before either diff lands: PART=0 with BIN=./dlbtune (the producer diff
#   rewrites 3xTF32's KIND 2 producer too, BK 32) and PART=4.
# PART=4 (up to 580 s cold, then again warm): gpu_conv fp16 on BIN (default ./dlbtune): every candidate on the
#   awkward shapes (dilation, strides, odd sizes, splits).
# PART=1 (about 200 s): the ncu passes below, on the base build (.gpu/cbase/dlbtune).
# PART=2 (about 250 s): the four builds in turn, twice (base, step, two, all, then again), KIND 2's 64x64 STAGES 8,
#   64x128 STAGES 8 and 128x128 WARPS_M 2 STAGES 4, every split, on the two 3x3 rows; each point's time by build.
#   Prediction: if the producer's loop is the bound, step makes 64x64 without a split 13.3 -> 11-12 µs and two
#   more; if the consumer's wait is, "all" does; else every point within 2%.
# PART=3 (about 200 s a call): A/B as run112 PART=3 (worst_batch1.csv and the first third of the batch-1 rows,
#   default search, fresh databases), one build a call: B=base (.gpu/cbase/dlbtune), then B=new (NEW, default
#   ./dlbtune; NEW=.gpu/cstep/dlbtune for step alone), when PART=2 shows a gain. Then here, without a GPU:
#   python3 docs/results/conv/ab_suite.py BASE_DIR NEW_DIR (the two calls' files).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
t0=$(date +%s)
case "${PART:-1}" in
0 | 4)
	p=fp32; bin=${BIN:-.gpu/cbase/dlbtune}
	[ "$PART" = 4 ] && p=fp16 && bin=${BIN:-./dlbtune}
	DLB_REQUIRE_GPU=1 GPU_CONV_PRECS=$p top_builddir=$(dirname $bin) timeout 580 sh tests/gpu_conv.sh >$OUT/gpu_conv_$p.txt 2>&1
	echo "== gpu_conv $p ($bin): exit $? at $(( $(date +%s) - t0 )) s"; tail -3 $OUT/gpu_conv_$p.txt
	exit 0
	;;
2)
	l28="--w 28 --h 28 --c 256 --k 512"; l84="--w 84 --h 20 --c 256 --k 256"
	cfgs="BM=64 BN=64 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2|BM=64 BN=128 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2"
	cfgs="$cfgs|BM=128 BN=128 BK=64 WARPS_M=2 WARPS_N=1 STAGES=4 KIND=2"
	for pass in 1 2; do
		for b in base step two all; do
			bin=./dlbtune; [ $b = all ] || bin=.gpu/c$b/dlbtune
			for name in 28 84; do
				l=l$name
				timeout -s INT -k 5 60 $bin --op conv --prec fp16 --layout NHWC ${!l} --n 1 --s 3 --r 3 --pad-w 1 --pad-h 1 \
					--only "$cfgs" --strategy exhaustive --paired 0 --db /tmp/db2_${b}_${name}_$pass >/dev/null 2>$OUT/p2_${b}_${name}_$pass.err
				echo "== $name $b pass $pass: exit $? at $(( $(date +%s) - t0 )) s"
				$bin db show --db /tmp/db2_${b}_${name}_$pass --op conv --prec fp16 --layout NHWC ${!l} --n 1 --s 3 --r 3 \
					--pad-w 1 --pad-h 1 --only "$cfgs" >$OUT/p2_${b}_${name}_$pass.show 2>&1
			done
		done
	done
	python3 - $OUT <<'PY'
import collections, glob, re, sys
t = collections.defaultdict(dict)
for f in sorted(glob.glob(sys.argv[1] + "/p2_*.show")):
    b, name, p = re.search(r"p2_(\w+?)_(\d+)_(\d)\.show", f).groups()
    for line in open(f):
        m = re.search(r"BM=(\d+) BN=(\d+) BK=64 WARPS_M=(\d) WARPS_N=1 STAGES=(\d+) KIND=2(?: SPLITK=(-?\d+))? ok +n=\d+ +(\d+\.\d+) us", line)
        if m:
            t[(name, "%sx%s W%s S%s split %s" % (m.group(1), m.group(2), m.group(3), m.group(4), m.group(5) or "1"))][b + p] = float(m.group(6))
for k in sorted(t):
    v = t[k]
    by = {b: [v[b + p] for p in "12" if b + p in v] for b in ("base", "step", "two", "all")}
    if by["base"]:
        print("  %s %-28s " % k + "  ".join("%s %s" % (b, " ".join("%.2f" % x for x in by[b])) for b in by) +
              "".join("  %s/base %.3f" % (b, min(by[b]) / min(by["base"])) for b in ("step", "two", "all") if by[b]))
PY
	grep -h "wrong\|fault" $OUT/p2_*.err | grep -v " 0 wrong, 0 faults" | head -4
	gzip -f $OUT/*.err $OUT/*.show
	exit 0
	;;
3)
	(head -n 1 $d/batch1_speech_inference.csv; sed -n "2,24p" $d/batch1_speech_inference.csv) >/tmp/b1.csv
	b=${B:-base}; bin=${NEW:-./dlbtune}; [ $b = base ] && bin=.gpu/cbase/dlbtune
	for s in worst_batch1:$d/worst_batch1.csv b1:/tmp/b1.csv; do
		timeout -s INT -k 10 270 $bin --op conv --prec fp16 --layout NHWC --suite ${s#*:} --db /tmp/db3_${b}_${s%%:*} \
			--csv >$OUT/${s%%:*}_$b.csv 2>$OUT/${s%%:*}_$b.err
		echo "== ${s%%:*} $b ($bin): exit $? at $(( $(date +%s) - t0 )) s"
	done
	gzip -f $OUT/*.err
	exit 0
	;;
esac
row="--w 28 --h 28 --c 256 --k 512 --n 1 --s 3 --r 3 --pad-w 1 --pad-h 1"
cfg="BM=64 BN=64 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2"
run=".gpu/cbase/dlbtune --op conv --prec fp16 --layout NHWC $row --power-ms 0 --paired 0"
src="--section SourceCounters --page source --print-source sass --csv"
# pass 1: every launch of the configuration (its splits, verification, one sample each), to find one without a
# split: 104 blocks, no cluster
timeout -k 5 120 ncu --clock-control none -k regex:conv_nhwc --section LaunchStats --csv --page details $run \
	--only "$cfg" --strategy exhaustive --fixed-samples 1 --db /tmp/db_l >$OUT/launches.csv 2>$OUT/launches.err
echo "== launches: exit $? in $(( $(date +%s) - t0 )) s"
id=$(python3 - $OUT/launches.csv <<'PY'
import csv, collections, sys
k = collections.defaultdict(dict)
rows = [r for r in csv.reader(open(sys.argv[1], errors="replace")) if len(r) > 10]
h = rows[0] if rows else []
for r in rows[1:]:
    d = dict(zip(h, r))
    k[int(d["ID"])][d["Metric Name"]] = d["Metric Value"].replace(",", "")
for i in sorted(k):
    print("  launch %d: grid %s, cluster %s" % (i, k[i].get("Grid Size"), k[i].get("Cluster Size")), file=sys.stderr)
print(next((i for i in sorted(k) if k[i].get("Grid Size") == "104" and k[i].get("Cluster Size", "0") in ("0", "1")), ""))
PY
)
echo "== the launch without a split: ${id:-none}"
if [ -n "$id" ]; then
	timeout -k 5 120 ncu --clock-control none -k regex:conv_nhwc --launch-skip $id --launch-count 1 $src $run --only "$cfg" \
		--strategy exhaustive --fixed-samples 1 --db /tmp/db_s >$OUT/ours_source.csv 2>$OUT/ours_source.err
	echo "== ours, source page: exit $? in $(( $(date +%s) - t0 )) s"
	python3 docs/results/gemm_fp32/ncu_source.py $OUT/ours_source.csv --top 12
	timeout -k 5 120 ncu --clock-control none -k regex:conv_nhwc --launch-skip $id --launch-count 1 --section SpeedOfLight \
		--section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis --csv --page details $run \
		--only "$cfg" --strategy exhaustive --fixed-samples 1 --db /tmp/db_d >$OUT/ours_details.csv 2>$OUT/ours_details.err
	echo "== ours, details: exit $? in $(( $(date +%s) - t0 )) s"
fi
# cuDNN's kernel on the same row: its second launch in the process (cudnnFind's trial, then the harness's)
timeout -k 5 150 ncu --clock-control none -k regex:tilesize64x64x64_warpgroupsize1x1x1 --launch-skip 1 --launch-count 1 \
	$src $run --only "$cfg" --fixed-samples 1 --db /tmp/db_v >$OUT/cudnn_source.csv 2>$OUT/cudnn_source.err
echo "== cuDNN, source page: exit $? in $(( $(date +%s) - t0 )) s"
python3 docs/results/gemm_fp32/ncu_source.py $OUT/cudnn_source.csv --top 12
timeout -k 5 150 ncu --clock-control none -k regex:tilesize64x64x64_warpgroupsize1x1x1 --launch-skip 1 --launch-count 1 \
	--section SpeedOfLight --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis --csv \
	--page details $run --only "$cfg" --fixed-samples 1 --db /tmp/db_w >$OUT/cudnn_details.csv 2>$OUT/cudnn_details.err
echo "== cuDNN, details: exit $? in $(( $(date +%s) - t0 )) s"
for f in ours cudnn; do
	[ -s $OUT/${f}_details.csv ] || continue
	python3 - $OUT/${f}_details.csv <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1], errors="replace")) if len(r) > 10]
h = rows[0] if rows else []
want = ("Duration", "Compute (SM) Throughput", "L2 Cache Throughput", "DRAM Throughput", "Grid Size", "Cluster Size",
        "Block Size", "Registers Per Thread", "Warp Cycles Per Issued Instruction", "Issue Slots Busy",
        "Mem Busy", "Max Bandwidth", "L1/TEX Hit Rate", "L2 Hit Rate")
for r in rows[1:]:
    d = dict(zip(h, r))
    if d.get("Metric Name") in want:
        print("  %s: %s %s %s" % (sys.argv[1].split("/")[-1], d["Metric Name"], d["Metric Value"], d.get("Metric Unit", "")))
PY
done
gzip -f $OUT/*.csv $OUT/*.err
