#!/bin/bash
# ncu on one of our convolution launches, chosen by grid and cluster size, and on one cuDNN kernel of the same row:
# for each, the source page (stall samples per SASS instruction; ncu_source.py's summary) and the details (speed of
# light, warp states, launch, memory). The generic part of run114.sh PART=1, for later runs to call.
#   OUT=DIR TAG=name BIN=path ROW="--op conv --prec fp16 --layout NHWC --w ... (every problem option)" CFG="BM=..."
#   GRID=104 [CLUSTER=1] [OURS=regex:conv_nhwc] [VENDOR=regex:...] bash docs/results/conv/ncu_launch.sh
# GRID empty: our first launch (the first candidate's verification). VENDOR empty: ours only. The device scripts
# source .gpu/env.sh first. Files: OUT/TAG_{launches,ours_source,ours_details,cudnn_source,cudnn_details}.csv.gz.
set -u
: "${OUT:?} ${TAG:?} ${BIN:?} ${ROW:?} ${CFG:?}"
GRID=${GRID:-} CLUSTER=${CLUSTER:-1} OURS=${OURS:-regex:conv_nhwc} VENDOR=${VENDOR:-}
here=$(dirname "$0")
t0=$(date +%s)
o=$OUT/$TAG
rm -rf /tmp/ncu_${TAG}_* # a database left by an earlier run would answer the problem, and nothing would launch
run=("$BIN" $ROW --power-ms 0 --paired 0 --only "$CFG" --strategy exhaustive --fixed-samples 1)
src=(--section SourceCounters --page source --print-source sass --csv)
det=(--section SpeedOfLight --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis --csv --page details)
id=0
if [ -n "$GRID" ]; then
	timeout -k 5 120 ncu --clock-control none -k $OURS --section LaunchStats --csv --page details "${run[@]}" --db /tmp/ncu_${TAG}_l \
		>${o}_launches.csv 2>${o}_launches.err
	echo "== $TAG launches: exit $? in $(( $(date +%s) - t0 )) s"
	id=$(python3 - ${o}_launches.csv "$GRID" "$CLUSTER" <<'PY'
import csv, collections, sys
k = collections.defaultdict(dict)
rows = [r for r in csv.reader(open(sys.argv[1], errors="replace")) if len(r) > 10]
h = rows[0] if rows else []
for r in rows[1:]:
    d = dict(zip(h, r))
    k[int(d["ID"])][d["Metric Name"]] = d["Metric Value"].replace(",", "")
want = lambda i: k[i].get("Grid Size") == sys.argv[2] and max(int(k[i].get("Cluster Size", "0") or 0), 1) == int(sys.argv[3])
print(next((i for i in sorted(k) if want(i)), ""))
print("  %d launches; grids %s" % (len(k), sorted({(k[i].get("Grid Size"), k[i].get("Cluster Size")) for i in k})), file=sys.stderr)
PY
)
	echo "== $TAG: the launch with grid $GRID, cluster $CLUSTER: ${id:-none}"
fi
# details: LaunchStats, SpeedOfLight and friends, one line a metric
details() {
	python3 - "$1" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1], errors="replace")) if len(r) > 10]
h = rows[0] if rows else []
want = ("Duration", "Compute (SM) Throughput", "L2 Cache Throughput", "DRAM Throughput", "Grid Size", "Cluster Size",
        "Block Size", "Registers Per Thread", "Warp Cycles Per Issued Instruction", "Issue Slots Busy",
        "Mem Busy", "Max Bandwidth", "L1/TEX Hit Rate", "L2 Hit Rate", "Achieved Occupancy", "Dynamic Shared Memory Per Block")
for r in rows[1:]:
    d = dict(zip(h, r))
    if d.get("Metric Name") in want:
        print("  %s: %s %s %s" % (sys.argv[1].split("/")[-1], d["Metric Name"], d["Metric Value"], d.get("Metric Unit", "")))
PY
}
if [ -n "$id" ]; then
	timeout -k 5 100 ncu --clock-control none -k $OURS --launch-skip $id --launch-count 1 "${src[@]}" "${run[@]}" --db /tmp/ncu_${TAG}_s \
		>${o}_ours_source.csv 2>${o}_ours_source.err
	echo "== $TAG ours, source page: exit $? in $(( $(date +%s) - t0 )) s"
	python3 $here/../gemm_fp32/ncu_source.py ${o}_ours_source.csv --top 12
	timeout -k 5 100 ncu --clock-control none -k $OURS --launch-skip $id --launch-count 1 "${det[@]}" "${run[@]}" --db /tmp/ncu_${TAG}_d \
		>${o}_ours_details.csv 2>${o}_ours_details.err
	echo "== $TAG ours, details: exit $? in $(( $(date +%s) - t0 )) s"
	details ${o}_ours_details.csv
fi
if [ -n "$VENDOR" ]; then # its second launch in the process: cudnnFind's trial, then the harness's
	timeout -k 5 120 ncu --clock-control none -k $VENDOR --launch-skip 1 --launch-count 1 "${src[@]}" "${run[@]}" --db /tmp/ncu_${TAG}_v \
		>${o}_cudnn_source.csv 2>${o}_cudnn_source.err
	echo "== $TAG cuDNN, source page: exit $? in $(( $(date +%s) - t0 )) s"
	python3 $here/../gemm_fp32/ncu_source.py ${o}_cudnn_source.csv --top 12
	timeout -k 5 120 ncu --clock-control none -k $VENDOR --launch-skip 1 --launch-count 1 "${det[@]}" "${run[@]}" --db /tmp/ncu_${TAG}_w \
		>${o}_cudnn_details.csv 2>${o}_cudnn_details.err
	echo "== $TAG cuDNN, details: exit $? in $(( $(date +%s) - t0 )) s"
	details ${o}_cudnn_details.csv
fi
gzip -f ${o}_*.csv ${o}_*.err 2>/dev/null
exit 0
