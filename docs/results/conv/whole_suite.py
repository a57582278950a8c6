#!/usr/bin/env python3
# A DeepBench conv suite whole on today's kernels, from the runs that measured its parts: each suite row
# (duplicates as the suite has them) looked up by shape; the paired geomean over the rows measured, the 5 worst
# and best distinct shapes, Benanza's measure (cuDNN's heuristic against cudnnFind's best), and the older whole
# run's geomean on the same rows. Run from the repository root:
#   python3 docs/results/conv/whole_suite.py inference  (fp16 NHWC: run135 PART=3 + 4; run130 + run132 before)
#   python3 docs/results/conv/whole_suite.py inference-run130  (the same from run130 PART=2 + run132; run84 before)
#   python3 docs/results/conv/whole_suite.py inference-run139  (the same with run139's second measurement of the
#                                                        batch-1 and speech rows; run135 before)
#   python3 docs/results/conv/whole_suite.py inference-run143  (the same with run143's batch-1 and speech rows, the
#                                                        one-sided cluster finish; run139 before)
#   python3 docs/results/conv/whole_suite.py training   (fp16 NHWC: run140's two shards; run131 + run133 + run134
#                                                        before)
#   python3 docs/results/conv/whole_suite.py training-run134  (the same from run131 + run133 + run134; run67 + run70
#                                                        before)
#   python3 docs/results/conv/whole_suite.py inference-int8  (int8 NHWC: run134 PART=2 + run137; run72 before)
#   python3 docs/results/conv/whole_suite.py training-fp32   (fp32 NCHW: run134 PART=3 + run137; run93 before)
import csv, math, os, sys
d = 'docs/results/conv/'
SETS = {
    'inference': ('../shared/deepbench/conv_inference_server.csv',
                  ['logs/run135/part3/p3/batch1_speech.csv', 'logs/run135/part4/inference_rest_fp16.csv'],
                  ['logs/run130/part2/batch1_speech.csv', 'logs/run132/inference_rest_fp16.csv'], 'run130 + run132',
                  'conv_inference_server fp16 NHWC'),
    'inference-run130': ('../shared/deepbench/conv_inference_server.csv',
                         ['logs/run130/part2/batch1_speech.csv', 'logs/run132/inference_rest_fp16.csv'],
                         ['logs/run84/inference_server_all.csv'], 'run84 + run84b', 'conv_inference_server fp16 NHWC'),
    'inference-run139': ('../shared/deepbench/conv_inference_server.csv',
                         ['logs/run139/p/batch1_speech.csv', 'logs/run135/part4/inference_rest_fp16.csv'],
                         ['logs/run135/part3/p3/batch1_speech.csv', 'logs/run135/part4/inference_rest_fp16.csv'],
                         'run135', 'conv_inference_server fp16 NHWC'),
    'inference-run143': ('../shared/deepbench/conv_inference_server.csv',
                         ['logs/run143/part3/batch1_speech67.csv', 'logs/run135/part4/inference_rest_fp16.csv'],
                         ['logs/run139/p/batch1_speech.csv', 'logs/run135/part4/inference_rest_fp16.csv'],
                         'run139', 'conv_inference_server fp16 NHWC'),
    'training': ('../shared/deepbench/conv_training.csv',
                 ['logs/run140/training_0.csv', 'logs/run140/training_1.csv'],
                 ['logs/run131/speech_training_fp16.csv', 'logs/run133/training_rest133a.csv',
                  'logs/run133/training_rest133b.csv', 'logs/run134/training_rest134.csv'], 'run131 + run133 + run134',
                 'conv_training fp16 NHWC'),
    'training-run134': ('../shared/deepbench/conv_training.csv',
                        ['logs/run131/speech_training_fp16.csv', 'logs/run133/training_rest133a.csv',
                         'logs/run133/training_rest133b.csv', 'logs/run134/training_rest134.csv'],
                        ['logs/run67/training.csv', 'logs/run70/training_rest.csv'], 'run67 + run70',
                        'conv_training fp16 NHWC'),
    'inference-int8': ('../shared/deepbench/conv_inference_server.csv',
                       ['logs/run134/part2/inference_int8.csv', 'logs/run137/int8_rest137.csv'],
                       ['logs/run72/inference_int8.csv'], 'run72', 'conv_inference_server int8 NHWC'),
    'training-fp32': ('../shared/deepbench/conv_training.csv',
                      ['logs/run134/part3/training_fp32.csv', 'logs/run137/fp32_rest137.csv'],
                      ['logs/run93/part2/training_fp32.csv'], 'run93', 'conv_training fp32 NCHW'),
}
K = ['w', 'h', 'c', 'n', 'k', 's', 'r', 'pad-w', 'pad-h', 'stride-w', 'stride-h']
KS = ['w', 'h', 'c', 'n', 'k', 's', 'r', 'pad_w', 'pad_h', 'stride_w', 'stride_h']
which = sys.argv[1] if len(sys.argv) > 1 else ''
if which not in SETS:
    sys.exit('usage: whole_suite.py ' + '|'.join(SETS))
suite_csv, new, old_files, old_name, title = SETS[which]
def load(fs):
    out = {}
    for f in fs:
        if os.path.exists(d + f):
            for r in csv.DictReader(open(d + f)):
                out[tuple(r[k] for k in K)] = r
    return out
now, old = load(new), load(old_files)
suite = [tuple(r[k] for k in KS) for r in csv.DictReader(open(suite_csv))]
uniq = list(dict.fromkeys(suite))
rows = [now[t] for t in suite if t in now]
missing = [t for t in uniq if t not in now]
gm = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs))
f = lambda r: float(r['paired_speedup'])
both = [t for t in suite if t in now and t in old]
print(f"{title}: {len(rows)} of {len(suite)} suite rows ({len(uniq) - len(missing)} of {len(uniq)} "
      f"shapes), {sum(r['verified'] == '1' for r in rows)} verified: paired geomean {gm([f(r) for r in rows]):.3f}x; "
      f"on the {len(both)} rows {old_name} also have: {gm([f(now[t]) for t in both]):.3f}x now, "
      f"{gm([f(old[t]) for t in both]):.3f}x then")
print(f"  rows faster than cuDNN's better choice: {sum(f(r) > 1 for r in rows)} of {len(rows)}")
if missing:
    print("  not measured: " + ', '.join(f"{t[0]}x{t[1]} c{t[2]} n{t[3]} k{t[4]} {t[5]}x{t[6]}" for t in missing))
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
        print(f"| {shape(r)} | {float(r['paired_tuned_us']):.2f} | {b[0]:.2f} ({b[1]}) | {f(r):.3f}x | "
              f"{kind[0] if kind else '-'} {r['kernel_family']} |")
ratio = [(float(now[t]['cudnn_heuristic_us']) / float(now[t]['cudnn_find_us']), t) for t in uniq if t in now]
bad = [x for x in ratio if x[0] > 1.05]
w = max(ratio)
print(f"\nBenanza's measure: the heuristic's first choice more than 5% slower than cudnnFind's best on {len(bad)} of "
      f"{len(ratio)} shapes; heuristic / Find geomean {gm([x[0] for x in ratio]):.3f}x; worst {w[0]:.2f}x "
      f"({shape(now[w[1]])})")
