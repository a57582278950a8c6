#!/usr/bin/env python3
"""run121.sh PART=3's table: DIR/{hd,gw}_{1,2}.csv hold one CSV line a row (no header, dlbtune's gemm columns);
for each row the better of the two passes' tuned times, gw / hd, and the geomean. ab121.py DIR"""
import csv, math, sys


def load(f):
    t = {}
    try:
        lines = open(f).read().splitlines()
    except OSError:
        return t
    for r in csv.reader(lines):
        try:  # m, n, k, layout, prec, best_config, kernel_family, tuned_us: the gemm CSV's first columns
            t[(r[0], r[1], r[2], r[3])] = float(r[7])
        except (IndexError, ValueError):
            pass
    return t


d = sys.argv[1]
t = {(b, p): load("%s/%s_%d.csv" % (d, b, p)) for b in ("hd", "gw") for p in (1, 2)}
keys = sorted(set(t[("hd", 1)]) | set(t[("hd", 2)]), key=lambda k: (int(k[0]) * int(k[1]) * int(k[2]), k))
rat = []
for k in keys:
    v = {b: min([t[(b, p)][k] for p in (1, 2) if k in t[(b, p)]] or [float("nan")]) for b in ("hd", "gw")}
    r = v["gw"] / v["hd"]
    if r == r:
        rat.append(r)
    print("  %sx%sx%s %s: hd %.2f us, gw %.2f us, gw/hd %.3f" % (k[0], k[1], k[2], k[3], v["hd"], v["gw"], r))
if rat:
    print("  geomean gw/hd %.3f over %d rows" % (math.exp(sum(map(math.log, rat)) / len(rat)), len(rat)))
