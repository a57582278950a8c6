#!/usr/bin/env python3
# conv_inference_server fp16 NHWC whole on today's kernels: run130 PART=2's 67 batch-1 and speech rows joined with
# run132's other 36, each suite row (duplicates as the suite has them) looked up by shape; the paired geomean,
# the 5 worst and best rows, Benanza's measure (the heuristic's choice against cudnnFind's best), and run84's
# geomean on the same rows. Run from the repository root.
import csv, math
d = 'docs/results/conv/'
K = ['w', 'h', 'c', 'n', 'k', 's', 'r', 'pad-w', 'pad-h', 'stride-w', 'stride-h']
KS = ['w', 'h', 'c', 'n', 'k', 's', 'r', 'pad_w', 'pad_h', 'stride_w', 'stride_h']
def load(*fs):
    out = {}
    for f in fs:
        for r in csv.DictReader(open(f)):
            out[tuple(r[k] for k in K)] = r
    return out
now = load(d + 'logs/run130/part2/batch1_speech.csv', d + 'logs/run132/inference_rest_fp16.csv')
old = load(d + 'logs/run84/inference_server_all.csv')
suite = [tuple(r[k] for k in KS) for r in csv.DictReader(open('../shared/deepbench/conv_inference_server.csv'))]
rows = [now[t] for t in suite]
gm = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs))
f = lambda r: float(r['paired_speedup'])
print(f"conv_inference_server fp16 NHWC, {len(rows)} suite rows ({len(set(suite))} distinct), "
      f"{sum(r['verified'] == '1' for r in rows)} verified: paired geomean {gm([f(r) for r in rows]):.3f}x; "
      f"run84 on the same rows {gm([f(old[t]) for t in suite if t in old]):.3f}x ({sum(t in old for t in suite)} rows)")
print(f"  rows faster than cuDNN's better choice: {sum(f(r) > 1 for r in rows)} of {len(rows)}")
def shape(r):
    s = f"{r['w']}x{r['h']} c{r['c']} n{r['n']} k{r['k']} {r['s']}x{r['r']}"
    if r['stride-w'] != '1' or r['stride-h'] != '1':
        s += f" stride {r['stride-w']}" + ('' if r['stride-w'] == r['stride-h'] else 'x' + r['stride-h'])
    return s
def best(r):
    h, fi = float(r['cudnn_heuristic_us']), float(r['cudnn_find_us'])
    return (h, r['cudnn_heuristic_algo'] + ' (heuristic)') if h <= fi else (fi, r['cudnn_find_algo'] + ' (find)')
uniq = list(dict.fromkeys(suite))
srt = sorted((now[t] for t in uniq), key=f)
for name, sel in (('5 worst', srt[:5]), ('5 best', srt[-5:])):
    print(f"\n{name} (distinct shapes):\n\n| shape | ours µs | cuDNN's better µs (algorithm) | paired | our kernel |\n|---|---|---|---|---|")
    for r in sel:
        b = best(r)
        kind = [x for x in r['best_config'].split() if x.startswith('KIND=')]
        print(f"| {shape(r)} | {float(r['paired_tuned_us']):.2f} | {b[0]:.2f} ({b[1]}) | {f(r):.3f}x | {kind[0] if kind else '-'} {r['kernel_family']} |")
ratio = [(float(now[t]['cudnn_heuristic_us']) / float(now[t]['cudnn_find_us']), t) for t in uniq]
bad = [x for x in ratio if x[0] > 1.05]
w = max(ratio)
print(f"\nBenanza's measure: the heuristic's first choice more than 5% slower than cudnnFind's best on {len(bad)} of "
      f"{len(uniq)} shapes; heuristic / Find geomean {gm([x[0] for x in ratio]):.3f}x; worst {w[0]:.2f}x ({shape(now[w[1]])})")
