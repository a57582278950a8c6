#!/usr/bin/env python3
"""Row-by-row A/B of two dlbtune fp32 GEMM CSVs of the same rows (a base build, then a changed one): each row's
paired time and speedup in both, and the geomeans of the time ratio and of the paired speedups.
ab_rows.py BASE.csv NEW.csv [BASE_NAME NEW_NAME]"""
import csv, math, sys

key = lambda r: (r['m'], r['n'], r['k'], r['layout'])
base = {key(r): r for r in csv.DictReader(open(sys.argv[1]))}
new = {key(r): r for r in csv.DictReader(open(sys.argv[2]))}
bn, nn = (sys.argv[3], sys.argv[4]) if len(sys.argv) > 4 else ('base', 'new')
gm = lambda x: math.exp(sum(map(math.log, x)) / len(x)) if x else float('nan')
t, pb, pn = [], [], []
for k, b in new.items():
    if k not in base:
        continue
    a = base[k]
    t.append(float(b['paired_tuned_us']) / float(a['paired_tuned_us']))
    pb.append(float(a['paired_speedup']))
    pn.append(float(b['paired_speedup']))
    print(f"  {'x'.join(k[:3])} {k[3]}: {bn} {float(a['paired_tuned_us']):.1f} us ({a['paired_speedup']}x), {nn} "
          f"{float(b['paired_tuned_us']):.1f} us ({b['paired_speedup']}x) {b['best_config'][:40]} verified {b['verified']}")
print(f"  {len(t)} rows: time {nn}/{bn} {gm(t):.3f}, paired {gm(pb):.3f}x -> {gm(pn):.3f}x")
