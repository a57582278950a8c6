#!/usr/bin/env python3
"""Paired-speedup geomeans of a dlbtune CSV (docs/results/gemm_fp32): all rows, and by class
(N <= 16; >= 1 GFLOP with N > 16; the rest), with the winners' kernel families."""
import collections, csv, math, sys

def geo(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")

rows = [r for f in sys.argv[1:] for r in csv.DictReader(open(f)) if r.get("paired_speedup")]
cls = collections.defaultdict(list)
fam = collections.Counter()
for r in rows:
    m, n, k = int(r["m"]), int(r["n"]), int(r["k"])
    c = "N <= 16" if n <= 16 else (">= 1 GFLOP" if 2 * m * n * k >= 1e9 else "N > 16, < 1 GFLOP")
    sp = float(r["paired_speedup"])
    cls["all"].append(sp)
    cls[c].append(sp)
    fam[(c, r.get("kernel_family", "?"))] += 1
print("| rows | n | paired geomean | min | max |")
print("|---|---|---|---|---|")
for c in ("all", "N <= 16", "N > 16, < 1 GFLOP", ">= 1 GFLOP"):
    xs = cls.get(c, [])
    if xs:
        print("| %s | %d | %.3fx | %.3fx | %.3fx |" % (c, len(xs), geo(xs), min(xs), max(xs)))
print()
for (c, f), n in sorted(fam.items()):
    print("winners: %-20s %-16s %d" % (c, f, n))
