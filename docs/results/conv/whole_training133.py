#!/usr/bin/env python3
# conv_training fp16 NHWC on today's kernels: run131's 16 speech rows joined with run133's two halves of the other
# 74 distinct shapes (the second half cut at its limit after 35 of 37; run134 PART=1's two rows when present), each suite row (duplicates as the suite
# has them) looked up by shape; the paired geomean over the rows measured, the 5 worst and best, Benanza's
# measure, and run67 + run70's geomean on the same rows. Run from the repository root.
import csv, math, os
d = 'docs/results/conv/'
K = ['w', 'h', 'c', 'n', 'k', 's', 'r', 'pad-w', 'pad-h', 'stride-w', 'stride-h']
KS = ['w', 'h', 'c', 'n', 'k', 's', 'r', 'pad_w', 'pad_h', 'stride_w', 'stride_h']
def load(*fs):
    out = {}
    for f in fs:
        for r in csv.DictReader(open(f)):
            out[tuple(r[k] for k in K)] = r
    return out
now = load(d + 'logs/run131/speech_training_fp16.csv', d + 'logs/run133/training_rest133a.csv',
           d + 'logs/run133/training_rest133b.csv',
           *[f for f in [d + 'logs/run134/training_rest134.csv'] if os.path.exists(f)])  # run134 PART=1: the last two
old = load(d + 'logs/run67/training.csv', d + 'logs/run70/training_rest.csv')
suite = [tuple(r[k] for k in KS) for r in csv.DictReader(open('../shared/deepbench/conv_training.csv'))]
uniq = list(dict.fromkeys(suite))
rows = [now[t] for t in suite if t in now]
missing = [t for t in uniq if t not in now]
gm = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs))
f = lambda r: float(r['paired_speedup'])
both = [t for t in suite if t in now and t in old]
print(f"conv_training fp16 NHWC: {len(rows)} of {len(suite)} suite rows ({len(uniq) - len(missing)} of {len(uniq)} shapes), "
      f"{sum(r['verified'] == '1' for r in rows)} verified: paired geomean {gm([f(r) for r in rows]):.3f}x; "
      f"on the {len(both)} rows run67 + run70 also have: {gm([f(now[t]) for t in both]):.3f}x now, {gm([f(old[t]) for t in both]):.3f}x then")
print(f"  rows faster than cuDNN's better choice: {sum(f(r) > 1 for r in rows)} of {len(rows)}")
print("  not measured (the second half's limit): " + ', '.join('x'.join(t[:2]) + f" c{t[2]} n{t[3]} k{t[4]} {t[5]}x{t[6]}" for t in missing))
def shape(r):
    s = f"{r['w']}x{r['h']} c{r['c']} n{r['n']} k{r['k']} {r['s']}x{r['r']}"
    if r['stride-w'] != '1' or r['stride-h'] != '1':
        s += f" stride {r['stride-w']}" + ('' if r['stride-w'] == r['stride-h'] else 'x' + r['stride-h'])
    return s
def best(r):
    h, fi = float(r['cudnn_heuristic_us']), float(r['cudnn_find_us'])
    return (h, r['cudnn_heuristic_algo'] + ' (heuristic)') if h <= fi else (fi, r['cudnn_find_algo'] + ' (find)')
srt = sorted((now[t] for t in uniq if t in now), key=f)
for name, sel in (('5 worst', srt[:5]), ('5 best', srt[-5:])):
    print(f"\n{name} (distinct shapes):\n\n| shape | ours µs | cuDNN's better µs (algorithm) | paired | our kernel |\n|---|---|---|---|---|")
    for r in sel:
        b = best(r)
        kind = [x for x in r['best_config'].split() if x.startswith('KIND=')]
        print(f"| {shape(r)} | {float(r['paired_tuned_us']):.2f} | {b[0]:.2f} ({b[1]}) | {f(r):.3f}x | {kind[0] if kind else '-'} {r['kernel_family']} |")
ratio = [(float(now[t]['cudnn_heuristic_us']) / float(now[t]['cudnn_find_us']), t) for t in uniq if t in now]
bad = [x for x in ratio if x[0] > 1.05]
w = max(ratio)
print(f"\nBenanza's measure: the heuristic's first choice more than 5% slower than cudnnFind's best on {len(bad)} of "
      f"{len(ratio)} shapes; heuristic / Find geomean {gm([x[0] for x in ratio]):.3f}x; worst {w[0]:.2f}x ({shape(now[w[1]])})")
