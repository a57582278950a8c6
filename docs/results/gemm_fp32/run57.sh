#!/bin/bash
# Device calls 57 for fp32 GEMM (issue 30), prepared 2026-12-01 (a ninth session; its device time spent). Not run.
# next_fewrows.diff (fr): a fourth fp32 family, KIND 3 "FFMA few rows", for C with M <= 64 rows (DeepSpeech's
# M = 35): a block holds all of C's rows for BN columns, each thread TN columns and every row, B (the large
# operand) read once from global memory into registers a batch of KU k ahead, A staged in shared memory 64 k at
# a time and read as broadcasts, rows taken 8 at a time and the chunks past M skipped (docs/NOTES.md item 222).
# Built here: the 46 candidates compile for sm_90a in all four layouts, 0 spills (at most 243 registers);
# test_space, test_cli, cli_errors and sass_check pass with it; 1024 FFMA and 128 LDS.128 a batch in BM 64 TN 2
# KU 8; fewrows_emulate.py (a CPU emulation of the kernel's indexing) passes its 80 cases.
# Why: the twelve M = 35 rows of gemm_training and gemm_inference_server are 0.71-0.92x of cuBLAS with
# --fp32-math ffma (run46, run51: BM 16 or 64 tiles, B read by 3 M-tiles or 45% of a 64-row tile idle), and
# eight of them are in the >= 1 GFLOP class the issue holds to 0.95x (0.907x).
# PART=1 (about 120 s): DLB_VERIFY_ONLY='KIND=3' gpu_gemm_verify fp32 on fr: every few-rows candidate and split on
#   the seven shapes with M <= 64 and N > 16 (35x35x35, 35x1760x129, 33x17x4099, 35x77x512, 35x96x200, 20x77x336,
#   7x300x500), all four layouts. Must say 0 wrong, 0 errors.
# PART=2 (about 250 s): fewrows_rows.csv (the 12 M = 35 rows) with --fp32-math ffma, default search, fresh
#   databases, HEAD (hd) then fr, each row's paired speedup against the better cuBLAS choice.
#   Prediction: 35x8457x4096 155 -> 60-90 µs (cuBLAS 116-130: 1.3-2.0x); 35x8457xK overall 0.87x -> 1.3-1.8x;
#   35x700 and 35x1500 (latency-bound, 16-30 µs) 0.80x -> 1.0-1.4x; the training >= 1 GFLOP class from 0.907x to
#   about 0.94-0.96x with the eight rows replaced.
# If PART=1 passes and PART=2 gains, land it: git apply docs/results/gemm_fp32/next_fewrows.diff.
# One call each: mkdir -p $OUT && OUT=$OUT PART=N bash docs/results/gemm_fp32/run57.sh.
# Build: git apply docs/results/gemm_fp32/next_fewrows.diff && make && make tests/gpu_gemm_verify && mkdir -p
# .gpu/fr && cp dlbtune tests/gpu_gemm_verify .gpu/fr/ && git checkout src templates tests && make; bundle
# (../shared/gpu/bundle .gpu ./dlbtune); carry dlbtune and .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
t0=$(date +%s)
if [ "${PART:-1}" = 1 ]; then
	DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY='KIND=3' timeout 500 .gpu/fr/gpu_gemm_verify fp32 >$OUT/verify_fewrows.txt 2>&1
	echo "== gpu_gemm_verify fp32 KIND=3 (fr): exit $? at $(( $(date +%s) - t0 )) s"; grep -E "candidates on|FAIL" $OUT/verify_fewrows.txt | tail -5
	exit 0
fi
for b in hd fr; do
	bin=./dlbtune; [ $b = fr ] && bin=.gpu/fr/dlbtune
	timeout -s INT -k 10 280 $bin --op gemm --prec fp32 --suite $d/fewrows_rows.csv --fp32-math ffma -v --db /tmp/db57$b \
		--csv >$OUT/fewrows_$b.csv 2>$OUT/fewrows_$b.err
	echo "== $b: exit $? at $(( $(date +%s) - t0 )) s"
done
python3 - $OUT/fewrows_hd.csv $OUT/fewrows_fr.csv <<'PY'
import csv, math, sys
key = lambda r: (r['m'], r['n'], r['k'], r['layout'])
hd = {key(r): r for r in csv.DictReader(open(sys.argv[1]))}
fr = {key(r): r for r in csv.DictReader(open(sys.argv[2]))}
gm = lambda x: math.exp(sum(map(math.log, x)) / len(x)) if x else float('nan')
t, ph, pf = [], [], []
for k in fr:
    if k not in hd: continue
    a, b = hd[k], fr[k]
    t.append(float(b['paired_tuned_us']) / float(a['paired_tuned_us'])); ph.append(float(a['paired_speedup'])); pf.append(float(b['paired_speedup']))
    print(f"  {'x'.join(k[:3])} {k[3]}: hd {float(a['paired_tuned_us']):.1f} us ({a['paired_speedup']}x), fr {float(b['paired_tuned_us']):.1f} us ({b['paired_speedup']}x) {b['best_config'][:60]} verified {b['verified']}")
print(f"  {len(t)} rows: time fr/hd {gm(t):.3f}, paired {gm(ph):.3f}x -> {gm(pf):.3f}x")
PY
gzip -f $OUT/*.err
