#!/usr/bin/env python3
"""run116.sh PART=3's table: from `dlbtune db show` lines prefixed "ROW PASS " (points.txt), each row's best time
with MC 1, 2 and 4, then each tile's time without a split, every pass. mc_table116.py points.txt"""
import collections, re, sys

PT = re.compile(r"^(\d+) \d .*BM=(\d+) BN=(\d+) BK=64 WARPS_M=(\d) WARPS_N=1 STAGES=(\d+) KIND=2 MC=(\d)"
                r"(?: SPLITK=(-?\d+))? ok +n=\d+ +(\d+\.\d+) us")
t = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = PT.search(line)
    if m:
        key = (int(m.group(1)), "%sx%s W%s S%s" % m.group(2, 3, 4, 5), int(m.group(6)), m.group(7) or "1")
        t[key].append(float(m.group(8)))
for row in sorted({k[0] for k in t}):
    best = {mc: min([min(v) for k, v in t.items() if k[0] == row and k[2] == mc] or [float("nan")]) for mc in (1, 2, 4)}
    print("  row %s: best MC 1 %.2f, MC 2 %.2f, MC 4 %.2f us" % (row, best[1], best[2], best[4]))
    for tile in sorted({k[1] for k in t if k[0] == row}):
        v = {mc: t.get((row, tile, mc, "1"), []) for mc in (1, 2, 4)}
        print("    %-18s no split: " % tile + "  ".join("MC %d %s" % (mc, " ".join("%.2f" % x for x in v[mc]) or "-")
                                                      for mc in (1, 2, 4)))
