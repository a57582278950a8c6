#!/usr/bin/env python3
"""A conv A/B of two builds over the same suites (run114.sh PART=3): for each NAME with NAME_base.csv in BASE_DIR
and NAME_new.csv in NEW_DIR, the new build's time over the base's (geomean), the paired speedups of both, the rows
verified, and the rows that moved by more than 3%. ab_suite.py BASE_DIR NEW_DIR"""
import csv, glob, math, os, sys

key = lambda r: tuple(r[c] for c in ("w", "h", "c", "n", "k", "s", "r", "stride-w", "pad-w"))
g = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
for fb in sorted(glob.glob(os.path.join(sys.argv[1], "*_base.csv"))):
    name = os.path.basename(fb)[:-len("_base.csv")]
    fn = os.path.join(sys.argv[2], name + "_new.csv")
    if not os.path.exists(fn):
        continue
    a = {key(r): r for r in csv.DictReader(open(fb))}
    b = [r for r in csv.DictReader(open(fn)) if key(r) in a]
    if not b:
        continue
    print("%s: %d rows, new / base time %.3f, paired %.3f -> %.3f, verified %d of %d" % (name, len(b),
          g([float(r["tuned_us"]) / float(a[key(r)]["tuned_us"]) for r in b]),
          g([float(a[key(r)]["paired_speedup"]) for r in b]), g([float(r["paired_speedup"]) for r in b]),
          sum(r["verified"] == "1" for r in b), len(b)))
    for r in b:
        if abs(float(r["tuned_us"]) / float(a[key(r)]["tuned_us"]) - 1) > 0.03:
            print("  %sx%s c%s k%s %sx%s: %s -> %s us  %s" % (r["w"], r["h"], r["c"], r["k"], r["s"], r["r"],
                  a[key(r)]["tuned_us"], r["tuned_us"], r["best_config"][:70]))
