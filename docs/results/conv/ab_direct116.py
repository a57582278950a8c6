#!/usr/bin/env python3
"""run116.sh PART=2's table: for each row of the two builds' CSVs (DIR/{A,B}_{1,2}.csv; A and B default to base and
ds), the better of the two passes' tuned times, and B / A; then the geomean. ab_direct116.py DIR [A B]"""
import csv, math, sys

KEY = "w h c n k s r pad-w pad-h stride-w stride-h".split()


def load(f):
    t = {}
    try:
        rows = list(csv.DictReader(open(f)))
    except OSError:
        return t
    for r in rows:  # a row without a time (n/a) is left out, not the file
        try:
            t[tuple(r[x] for x in KEY)] = float(r["tuned_us"])
        except (KeyError, ValueError, TypeError):
            pass
    return t


A, B = sys.argv[2:4] if len(sys.argv) > 3 else ("base", "ds")
t = {(b, p): load("%s/%s_%d.csv" % (sys.argv[1], b, p)) for b in (A, B) for p in (1, 2)}
rows = sorted(set(t[(A, 1)]) | set(t[(A, 2)]))
rat = []
for k in rows:
    v = {b: min([t[(b, p)][k] for p in (1, 2) if k in t[(b, p)]] or [float("nan")]) for b in (A, B)}
    r = v[B] / v[A]
    if r == r:
        rat.append(r)
    print("  %sx%s c%s n%s k%s %sx%s stride %s: %s %.2f us, %s %.2f us, %s/%s %.3f" %
          (k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[9], A, v[A], B, v[B], B, A, r))
if rat:
    print("  geomean %s/%s %.3f over %d rows" % (B, A, math.exp(sum(map(math.log, rat)) / len(rat)), len(rat)))
