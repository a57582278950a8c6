# ncu on proto_halo_bin (docs/results/conv/proto_halo.cu, built as its header says), 350x80 c64 k64 n2: the source page
# and the details of its first launch. One call: OUT=$OUT bash docs/results/conv/proto_halo_ncu.sh.
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
mkdir -p $OUT
timeout 100 ncu --clock-control none -k regex:halo_conv --launch-count 1 --section SourceCounters --page source --print-source sass --csv ./proto_halo_bin 350 80 2 1 > $OUT/src.csv 2>$OUT/src.err
echo "src exit $?"
python3 docs/results/gemm_fp32/ncu_source.py $OUT/src.csv --top 14
timeout 100 ncu --clock-control none -k regex:halo_conv --launch-count 1 --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section LaunchStats --csv --page details ./proto_halo_bin 350 80 2 1 > $OUT/det.csv 2>$OUT/det.err
echo "det exit $?"
python3 - $OUT/det.csv <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1], errors="replace")) if len(r) > 10]
h = rows[0]
for r in rows[1:]:
    d = dict(zip(h, r))
    if d.get("Metric Name") in ("Duration", "Compute (SM) Throughput", "L2 Cache Throughput", "DRAM Throughput", "Mem Busy", "Max Bandwidth", "Warp Cycles Per Issued Instruction", "Issue Slots Busy", "Registers Per Thread", "L2 Hit Rate", "Mem Pipes Busy"):
        print("  %s %s %s" % (d["Metric Name"], d["Metric Value"], d.get("Metric Unit", "")))
PY
gzip -f $OUT/*.csv
