#!/usr/bin/env python3
# The energy check of the report's run04-06 (issue 31): from `dlbtune export --format json` on stdin, each
# row's mean power implied by its joules over its GPU time, ours and the vendor's, and how many rows have
# energy at all; with an argument F, exit 1 when fewer than that fraction of the rows have both energies. A
# 700 W card must never show more than about 700 W: run01's bursts showed up to 1311 W.
import json, sys
rows, have, worst = 0, 0, []
for r in json.load(sys.stdin)["records"]:
    e = (r.get("best") or {}).get("paired", {}).get("energy") or {}
    rows += 1
    ws = []
    for side in ("tuned", "vendor"):
        x = e.get(side) or {}
        if x.get("steady") and x.get("joules") and x.get("seconds"):
            ws.append(x["joules"] / x["seconds"])
    if len(ws) == 2:
        have += 1
        worst.append((max(ws), min(ws), r["op"] if "op" in r else "", r["prec"], r["key"]))
worst.sort(reverse=True)
if len(sys.argv) > 1 and rows and have < float(sys.argv[1]) * rows:  # a gate: too few rows with energy
    print("rows %d, with both energies %d: under %s of them" % (rows, have, sys.argv[1]))
    sys.exit(1)
print("rows %d, with both energies %d" % (rows, have))
for w in worst[:8]:
    print("  highest: %.0f W (other side %.0f W) %s %s %s" % w)
for w in sorted(worst, key=lambda w: w[1])[:4]:
    print("  lowest: %.0f W (other side %.0f W) %s %s %s" % (w[1], w[0], w[2], w[3], w[4]))
