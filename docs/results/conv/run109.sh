#!/bin/bash
# Device calls 109 for convolution (issue 28), prepared 2026-11-30. PART=2 run (logs/run109/part2, one H200); PART=1
# (default, ncu) run in a later session on e20a9d1 (logs/run109/part1); its first try had a wrong --only (below).
# The batch-1 3x3 layers still at or below cuDNN after PDL (run107, docs/NOTES.md item 161): 28x28 c256 k512
# (ours 13.0 us against IMPLICIT_PRECOMP_GEMM's 11.6; floor about 5) and 84x20 c256 k256 (11.0 against 11.8).
# Both run the wgmma kernel fed by TMA's im2col mode (KIND 2), split over C·R·S, at 13-15% of the fp16 peak.
# ncu on our winner (speed of light, occupancy, launch, warp states, memory, compute) and on every cuDNN kernel
# the same process launches (cudnnFind's candidates, then the timed ones: names, grids, registers, durations),
# to see what cuDNN's fastest kernel does differently: its tile, its grid, whether it splits K, its L2 traffic.
# PART=2: is it the search? run107's default search ("model", window 8, at least 3 s) evaluated 55 of 2238
# candidates on 28x28 c256 k512 and stopped. The 8 worst batch-1 rows of run107 (worst_batch1.csv) tuned twice
# on fresh databases: default, then --window 64 --min-search 30. Prediction: within 3% on most rows; if the
# wide search finds 5% or more on several, the search's stop is part of the gap (about 300 s).
# Build here (./bootstrap && ./configure && make), carry dlbtune and .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
if [ "${PART:-1}" = 2 ]; then
	t0=$(date +%s)
	for w in default wide; do
		x=; [ $w = wide ] && x="--window 64 --min-search 30"
		timeout -s INT -k 10 280 ./dlbtune --op conv --prec fp16 --layout NHWC --suite docs/results/conv/worst_batch1.csv \
			--db /tmp/dbw_$w $x -v --csv >$OUT/worst_$w.csv 2>$OUT/worst_$w.err
		echo "== worst batch-1 rows, $w search: exit $? at $(( $(date +%s) - t0 )) s"
	done
	python3 - $OUT/worst_default.csv $OUT/worst_wide.csv <<'PY'
import csv, math, sys
a, b = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
key = lambda r: tuple(r[c] for c in ("w", "h", "c", "n", "k", "s", "r", "stride-w"))
d = {key(r): r for r in a}
a, b = [d[key(y)] for y in b if key(y) in d], [y for y in b if key(y) in d]
gm = lambda v: math.exp(sum(map(math.log, v)) / len(v))
for x, y in zip(a, b):
    print("  %sx%s c%s k%s %sx%s: default %s us (%s), wide %s us (%s), %.3f" % (x["w"], x["h"], x["c"], x["k"], x["s"], x["r"],
          x["tuned_us"], x["paired_speedup"], y["tuned_us"], y["paired_speedup"], float(y["tuned_us"]) / float(x["tuned_us"])))
print("  wide / default time %.3f; paired %.3f -> %.3f over %d rows" % (gm([float(y["tuned_us"]) / float(x["tuned_us"]) for x, y in zip(a, b)]),
      gm([float(x["paired_speedup"]) for x in a]), gm([float(y["paired_speedup"]) for y in b]), len(b)))
PY
	grep -h "candidates, .* samples" $OUT/worst_*.err | cut -c1-160
	gzip -f $OUT/*.err
	exit 0
fi
l28="--w 28 --h 28 --c 256 --k 512 --n 1 --s 3 --r 3 --pad-w 1 --pad-h 1"
l84="--w 84 --h 20 --c 256 --k 256 --n 1 --s 3 --r 3 --pad-w 1 --pad-h 1"
sec="--section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis"
# --only names a configuration, not a launch variant (SPLITK): run 2026-11-30 with "SPLITK" in the string,
# PART=1 stopped with exit 2 at once. Both rows now take run110's exhaustive winner (SPLITK=-4 chosen by the search).
for job in "28|$l28|BM=128 BN=128 BK=64 WARPS_M=2 WARPS_N=1 STAGES=4 KIND=2" \
	"84|$l84|BM=128 BN=128 BK=64 WARPS_M=2 WARPS_N=1 STAGES=4 KIND=2"; do
	IFS='|' read -r name layer cfg <<<"$job"
	common="./dlbtune --op conv --prec fp16 --layout NHWC $layer --only '$cfg' --power-ms 0 --fixed-samples 2 --paired 0"
	t0=$(date +%s)
	eval timeout -k 5 150 ncu --clock-control none -k regex:conv_nhwc --launch-skip 2 --launch-count 1 $sec --csv \
		--page details $common --db /tmp/db_o$name >$OUT/ours_$name.csv 2>$OUT/ours_$name.err
	echo "== $name ours: exit $? in $(( $(date +%s) - t0 )) s"
	t0=$(date +%s)
	eval timeout -k 5 200 ncu --clock-control none -k "regex:'xmma|cutlass|implicit|fprop|winograd|cudnn|fft|gemm|sm90|sm80'" \
		--launch-count 80 --section SpeedOfLight --section LaunchStats --csv --page details $common \
		--db /tmp/db_v$name >$OUT/cudnn_$name.csv 2>$OUT/cudnn_$name.err
	echo "== $name cuDNN's kernels: exit $? in $(( $(date +%s) - t0 )) s"
	python3 - $OUT/ours_$name.csv $OUT/cudnn_$name.csv <<'PY'
import csv, sys, collections
def load(f):
    rows = [r for r in csv.reader(open(f, errors="replace")) if len(r) > 10]
    if not rows: return []
    h = rows[0]; return [dict(zip(h, r)) for r in rows[1:]]
want = ("Duration", "Compute (SM) Throughput", "Memory Throughput", "L2 Cache Throughput", "DRAM Throughput",
        "Grid Size", "Block Size", "Registers Per Thread", "Dynamic Shared Memory Per Block", "Achieved Occupancy",
        "Issue Slots Busy", "Warp Cycles Per Issued Instruction")
for f in sys.argv[1:]:
    k = collections.defaultdict(dict)
    for r in load(f):
        if r.get("Metric Name") in want:
            k[(r["ID"], r["Kernel Name"][:110])][r["Metric Name"]] = r["Metric Value"] + " " + r.get("Metric Unit", "")
    print("  %s: %d kernels" % (f.split("/")[-1], len(k)))
    best = {}
    for (i, n), m in k.items():  # each kernel name's shortest launch
        v, _, u = m.get("Duration", "1e9 us").partition(" ")  # to microseconds
        d = float(v.replace(",", "")) * {"ns": 1e-3, "nsecond": 1e-3, "ms": 1e3, "msecond": 1e3}.get(u.strip(), 1)
        if n not in best or d < best[n][0]: best[n] = (d, m)
    for n, (d, m) in sorted(best.items(), key=lambda x: x[1][0])[:8]:
        print("   %s\n     %s" % (n, "; ".join("%s %s" % (w, m[w].strip()) for w in want if w in m)))
PY
done
gzip -f $OUT/*.csv $OUT/*.err
