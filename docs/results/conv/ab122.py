#!/usr/bin/env python3
# run122: per row, the exhaustive search's best against the default search's (this call) and run121's.
import csv, math, sys
key = lambda r: tuple(r[c] for c in ("w", "h", "c", "n", "k", "s", "r", "stride-w"))
rd = lambda f: {key(r): r for r in csv.DictReader(open(f))}
x, dflt, old = (rd(f) for f in sys.argv[1:4])
g = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
q = []
for k, r in x.items():
    d, o = dflt.get(k), old.get(k)
    line = "  %sx%s c%s n%s k%s %sx%s s%s: exhaustive %s us (paired %s; %s)" % (k + (r["tuned_us"], r["paired_speedup"], r["best_config"]))
    if d:
        q.append(float(d["tuned_us"]) / float(r["tuned_us"]))
        line += "; default %s us (paired %s; %s), default/exhaustive %.3f" % (d["tuned_us"], d["paired_speedup"], d["best_config"], q[-1])
    if o:
        line += "; run121 %s us (paired %s)" % (o["tuned_us"], o["paired_speedup"])
    print(line)
print("  default / exhaustive time, geomean %.3f over %d rows" % (g(q), len(q)))
