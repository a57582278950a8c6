#!/bin/bash
# Device call 114 for convolution (issue 28), prepared 2026-11-30 (a later session). Not run.
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
# Build here (./bootstrap && ./configure && make on HEAD), bundle, carry dlbtune and .gpu. About 200 s.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
row="--w 28 --h 28 --c 256 --k 512 --n 1 --s 3 --r 3 --pad-w 1 --pad-h 1"
cfg="BM=64 BN=64 BK=64 WARPS_M=1 WARPS_N=1 STAGES=8 KIND=2"
run="./dlbtune --op conv --prec fp16 --layout NHWC $row --power-ms 0 --paired 0"
src="--section SourceCounters --page source --print-source sass --csv"
t0=$(date +%s)
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
