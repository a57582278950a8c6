#!/usr/bin/env python3
"""Markdown table and summary of a `dlbtune --op spmm --csv` run: table.py SUITE.CSV"""
import csv, math, sys

rows = list(csv.DictReader(open(sys.argv[1])))


def f(x):
    try:
        return float(x)
    except ValueError:
        return None


def gm(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


print("| M | N | K | sparsity | ours µs (config) | useful TFLOP/s | GB/s (% HBM) | cuSPARSE best µs (alg) | dense µs "
      "| paired vs cuSPARSE | unpaired | ours wrt dense | cuSPARSE wrt dense |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    cfg = " ".join(w for w in r["best_config"].split() if not w.startswith(("MINB=1", "NZV=1", "TPR=32")))
    t, v = f(r["tuned_us"]), f(r["cusparse_us"])
    print("| %s | %s | %s | %s | %.1f (%s) | %s | %s (%s%%) | %s (%s) | %s | %s× | %.2f× | %s× | %s× |" % (
        r["m"], r["n"], r["k"], r["sparsity"], t, cfg, r["throughput"], r["tuned_gbps"], r["tuned_pct_hbm"],
        r["cusparse_us"], r["cusparse_algo"], r["dense_us"], r["paired_speedup"], v / t, r["speedup_wrt_dense"],
        r["cusparse_wrt_dense"]))
p = [f(r["paired_speedup"]) for r in rows]
u = [f(r["cusparse_us"]) / f(r["tuned_us"]) for r in rows]
print()
print("geomean paired %.3f, unpaired %.3f; rows won (paired > 1): %d of %d" % (gm(p), gm(u), sum(x > 1 for x in p), len(p)))
for name, sel in (("N = 1", lambda n: n == 1), ("N = 2, 4", lambda n: 2 <= n <= 4), ("N >= 1500", lambda n: n >= 1500)):
    s = [(x, y) for r, x, y in zip(rows, p, u) if sel(int(r["n"]))]
    if s:
        print("- %s: %d rows, paired geomean %.2f× (min %.2f×, max %.2f×), unpaired %.2f×" % (
            name, len(s), gm([x for x, _ in s]), min(x for x, _ in s), max(x for x, _ in s), gm([y for _, y in s])))
d = [f(r["speedup_wrt_dense"]) for r in rows]
print("- ours wrt dense: min %.2f×; faster than dense on %d of %d rows" % (min(d), sum(x > 1 for x in d), len(d)))
order = sorted(zip(p, rows), key=lambda x: x[0])
for title, part in (("worst 5", order[:5]), ("best 5", order[::-1][:5])):
    print("\n%s:" % title)
    for x, r in part:
        print("- %sx%sx%s at %s: %.2f× (%s %s µs vs %s %s)" % (r["m"], r["n"], r["k"], r["sparsity"], x,
              r["best_config"], r["tuned_us"], r["cusparse_algo"], r["cusparse_us"]))
