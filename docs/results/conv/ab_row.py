#!/usr/bin/env python3
"""One row of a conv A/B (run79.sh's table, run83.sh's): the last result of each build's CSV, its split-K, time
and paired speedup, and after / before. ab_row.py ROW BEFORE.csv AFTER.csv"""
import csv
import sys


def last(f):
    rows = list(csv.reader(open(f)))
    head = rows[0] if rows else []
    body = [r for r in rows if r != head]
    return dict(zip(head, body[-1])) if body else None


b, a = last(sys.argv[2]), last(sys.argv[3])
if b and a:
    sp = lambda r: [t for t in r["best_config"].split() if t.startswith("SPLITK")][0]
    print("%-34s | %-10s %8s %s | %-10s %8s %s | %.3f" % (sys.argv[1], sp(b), b["tuned_us"], b["paired_speedup"], sp(a),
          a["tuned_us"], a["paired_speedup"], float(a["tuned_us"]) / float(b["tuned_us"])))
