#!/bin/bash
# Device call 82 for convolution (issue 28), prepared 2026-11-28 (not run). run81's ncu profiled the split-1 launches
# (grid 28x1x1) of the 128x128 tile, not the winner's split 4. Here ncu times every conv_nhwc and conv_reduce
# launch of the same `--only` run (one metric, real clocks: --clock-control none) and the script keeps the split-4
# ones by grid (28x1x4) and the conv_reduce launches after them. Prediction (run81's): the convolution 6-7 us of the
# 12.3-12.4, conv_reduce 1-2 us, the rest launch latency; a firm split of the time either way.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for row in "84 20 256 256" "28 28 256 512"; do
	read w h c k <<<"$row"
	timeout -k 5 75 ncu --clock-control none --target-processes all -k regex:'conv_nhwc|conv_reduce' --launch-count 300 \
		--metrics gpu__time_duration.sum ./dlbtune --op conv --prec fp16 --layout NHWC --w $w --h $h --c $c --n 1 \
		--k $k --s 3 --r 3 --pad-w 1 --pad-h 1 --strategy exhaustive \
		--only "BM=128 BN=128 BK=64 WARPS_M=2 WARPS_N=1 STAGES=4 KIND=2" --db /tmp/ncu_$w$c$k >$OUT/ncu_${w}x$h.txt 2>&1
	echo "== ncu ${w}x$h: exit $?"
	python3 - $OUT/ncu_${w}x$h.txt <<'PY'
import re, sys, statistics
runs, cur = [], None
for line in open(sys.argv[1]):
    m = re.match(r"\s+(conv_nhwc|conv_reduce) \((\d+), (\d+), (\d+)\)x", line)
    if m:
        cur = [m.group(1), tuple(map(int, m.group(2, 3, 4)))]
        continue
    m = re.match(r"\s+gpu__time_duration.sum\s+(\S+)\s+([\d.,]+)", line)
    if m and cur:
        v = float(m.group(2).replace(",", "")) * {"ns": 1e-3, "us": 1, "ms": 1e3}.get(m.group(1), 1)
        runs.append((cur[0], cur[1], v))
        cur = None
by = {}
for i, (name, grid, us) in enumerate(runs):
    if name == "conv_nhwc":
        by.setdefault(("conv_nhwc", grid), []).append(us)
        nxt = runs[i + 1] if i + 1 < len(runs) else None
        if nxt and nxt[0] == "conv_reduce":
            by.setdefault(("conv_reduce after split %d" % grid[2], nxt[1]), []).append(nxt[2])
for (name, grid), v in sorted(by.items()):
    print("  %-28s grid %-14s %4d launches, median %.2f us (min %.2f)" % (name, grid, len(v), statistics.median(v), min(v)))
PY
done
