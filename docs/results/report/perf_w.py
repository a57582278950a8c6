#!/usr/bin/env python3
# The report's perf/W analysis (issue 31): from `dlbtune export --format json` on stdin, per op and precision,
# over the rows whose two sides both have steady energies: the geomean of J per call, the vendor's over ours,
# split into its two factors (mean power, vendor / ours, and time per call, vendor / ours), the mean watts of
# each side, and how many sides met the software power cap (NVML reason 0x4); then the same over the longest-
# running tenth of the rows (ours' time per call). Made logs/perf_w.txt.
import json, math, sys
from collections import defaultdict

SW_POWER_CAP = 0x4
groups = defaultdict(list)
host_bound = defaultdict(int)
for r in json.load(sys.stdin)["records"]:
    best = r.get("best") or {}
    paired = best.get("paired") or {}
    e = paired.get("energy") or {}
    sides = [e.get("tuned") or {}, e.get("vendor") or {}]
    if not all(s.get("steady") and s.get("joules") and s.get("seconds") and s.get("calls") for s in sides):
        continue
    t, v = sides
    row = {
        "jpc": (t["joules"] / t["calls"], v["joules"] / v["calls"]),
        "w": (t["joules"] / t["seconds"], v["joules"] / v["seconds"]),
        "spc": (t["seconds"] / t["calls"], v["seconds"] / v["calls"]),
        "cap": (bool(t.get("reasons", 0) & SW_POWER_CAP), bool(v.get("reasons", 0) & SW_POWER_CAP)),
        "paired": (paired.get("speedup") or {}).get("median"),
    }
    groups[(r["op"], r["prec"])].append(row)


def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def line(name, rows):
    if not rows:
        print("%-26s none" % name)
        return
    jr = geo([r["jpc"][1] / r["jpc"][0] for r in rows])
    pr = geo([r["w"][1] / r["w"][0] for r in rows])
    tr = geo([r["spc"][1] / r["spc"][0] for r in rows])
    ps = [r["paired"] for r in rows if r["paired"]]
    print("%-26s %3d rows: J/call vendor/ours %.2f = power %.2f x time per call %.2f (paired speedup %s); "
          "W ours %.0f, vendor %.0f; power cap hit: ours %d, vendor %d" %
          (name, len(rows), jr, pr, tr, "%.2f" % geo(ps) if ps else "n/a",
           sum(r["w"][0] for r in rows) / len(rows), sum(r["w"][1] for r in rows) / len(rows),
           sum(r["cap"][0] for r in rows), sum(r["cap"][1] for r in rows)))


for (op, prec), rows in sorted(groups.items()):
    line("%s %s all" % (op, prec), rows)
    rows = sorted(rows, key=lambda r: r["spc"][0], reverse=True)
    line("%s %s longest tenth" % (op, prec), rows[:max(1, len(rows) // 10)])
