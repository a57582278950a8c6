#!/usr/bin/env python3
"""summary.py CSV... : the tables of docs/results/tensorcore_h100.md from dlbtune's --csv output (stdlib only).
Per file: rows, geomean of the paired and the separate speedup, the latency-bound rows (N <= 16 or M <= 64), those
where vendor best / floor >= 1.5 ('room'), how many of each reach 1.5x, winners by KIND; then every row sorted by
paired speedup."""
import csv, math, sys

def f(x):
    return None if x in ('', 'n/a') else float(x)

def gm(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float('nan')

for path in sys.argv[1:]:
    rows = list(csv.DictReader(open(path)))
    for r in rows:
        r['vbest'] = min(x for x in (f(r['cublas_us']), f(r['cublaslt_best_us']), 1e30) if x)
        r['room'] = r['vbest'] / f(r['floor_us']) if f(r['floor_us']) else 0
        r['lb'] = int(r['n']) <= 16 or int(r['m']) <= 64
        r['kind'] = next(p.split('=')[1] for p in r['best_config'].split() if p.startswith('KIND='))
    lb = [r for r in rows if r['lb']]
    room = [r for r in lb if r['room'] >= 1.5]
    ok = lambda rs, c: sum(1 for r in rs if (f(r[c]) or 0) >= 1.5)
    kinds = {k: sum(1 for r in rows if r['kind'] == k) for k in '012'}
    print(f"## {path}: {len(rows)} rows, geomean paired {gm(f(r['paired_speedup']) for r in rows):.3f}x "
          f"(separate {gm(f(r['speedup']) for r in rows):.3f}x); latency-bound {len(lb)}: geomean paired "
          f"{gm(f(r['paired_speedup']) for r in lb):.3f}x (separate {gm(f(r['speedup']) for r in lb):.3f}x), "
          f">= 1.5x paired {ok(lb, 'paired_speedup')} (separate {ok(lb, 'speedup')}); with room {len(room)}, "
          f">= 1.5x paired {ok(room, 'paired_speedup')} (separate {ok(room, 'speedup')}); "
          f"winners KIND 0/1/2: {kinds['0']}/{kinds['1']}/{kinds['2']}")
    print('| shape | best configuration | tuned us | vendor best us | vendor best | floor us | vendor/floor | '
          'separate | side by side tuned / vendor us | paired [95% CI] | throughput | % peak |')
    print('|---|---|---:|---:|---|---:|---:|---:|---|---|---:|---:|')
    for r in sorted(rows, key=lambda r: -(f(r['paired_speedup']) or 0)):
        print(f"| {r['prec']} {r['m']}x{r['n']}x{r['k']} {r['layout']} | `{r['best_config']}` | {r['tuned_us']} | "
              f"{r['vbest']:.3f} | {r['vendor_best']} | {r['floor_us']} | {r['room']:.2f} | {f(r['speedup']):.2f}x | "
              f"{r['paired_tuned_us']} / {r['paired_vendor_us']} | {f(r['paired_speedup']):.2f}x "
              f"[{f(r['paired_speedup_lo']):.2f}, {f(r['paired_speedup_hi']):.2f}] | {r['throughput']} {r['unit']} | "
              f"{r['pct_peak']} |")
    print()
