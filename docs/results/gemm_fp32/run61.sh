#!/bin/bash
# Device calls 61 for fp32 GEMM (issue 30), prepared 2026-12-01 (a tenth session; its device time spent). Not run.
# next_edge_split.diff (es): the FFMA tile's loads choose the fast or the checked path per operand (docs/NOTES.md
# items 226, 228). On 35x8457x4096 NN our 64x128 8x8 tile takes 188 µs where cuBLAS's 64x128 8x8 xmma takes 118
# (+9 for its split-K sum); with M = 35 < BM no block is "interior", so B went through load_edge on every k-tile.
# es is a test of that cause, not a candidate to land: it raises registers in 383 of the 652 tile kernels (195
# lose a block an SM; item 228). If PART=1 confirms it, the landing form is an M-edge source specialisation.
# PART=1 (about 40 s): hd then es, exhaustive over the splits of two fixed tiles on 35x8457x4096, NN and TN:
#   BM 16 BN 128 BK 32 TM 8 TN 2 (the default search's winner; 127/125 registers in both builds, so only the
#   loads differ) and BM 64 BN 128 BK 16 TM 8 TN 8 (cuBLAS's shape; NN 166 -> 173 registers).
#   Prediction: the 16x128 tile's time 0.85-0.92 of hd's; if it is within 2%, load_edge is not the cause.
# PART=2 (about 120 s): DLB_VERIFY_ONLY='KIND=0' gpu_gemm_verify fp32 on es: 0 wrong, 0 errors.
# PART=3 (about 150 s): fewrows_rows.csv (the 12 M = 35 rows), --fp32-math ffma, default search, hd then es.
#   Prediction: 0.84x -> 0.90-0.97x.
# One call each: mkdir -p $OUT && OUT=$OUT PART=N bash docs/results/gemm_fp32/run61.sh.
# Build: git apply docs/results/gemm_fp32/next_edge_split.diff && make && make tests/gpu_gemm_verify && mkdir -p
# .gpu/es && cp dlbtune tests/gpu_gemm_verify .gpu/es/ && git checkout templates && make; bundle
# (../shared/gpu/bundle .gpu ./dlbtune); carry dlbtune and .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
t0=$(date +%s)
case "${PART:-1}" in
1)
	for b in hd es; do
		bin=./dlbtune; [ $b = es ] && bin=.gpu/es/dlbtune
		for o in 'BM=16 BN=128 BK=32 TM=8 TN=2 KIND=0' 'BM=64 BN=128 BK=16 TM=8 TN=8 KIND=0'; do
			for ta in 0 1; do
				timeout 60 $bin --op gemm --prec fp32 --m 35 --n 8457 --k 4096 --ta $ta --only "$o" \
					--strategy exhaustive --power-ms 0 --db /tmp/db61x$b$ta$RANDOM --csv 2>/dev/null | python3 -c "
import csv, sys
for r in csv.DictReader(sys.stdin): print('  $b ta=$ta', r['paired_tuned_us'], 'us', r['paired_speedup'] + 'x', 'verified', r['verified'], r['best_config'])"
			done
		done
	done ;;
2)
	DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY='KIND=0' timeout 500 .gpu/es/gpu_gemm_verify fp32 >$OUT/verify_es.txt 2>&1
	echo "== gpu_gemm_verify fp32 KIND=0 (es): exit $? at $(( $(date +%s) - t0 )) s"; grep -E "candidates|FAIL" $OUT/verify_es.txt | tail -5 ;;
3)
	for b in hd es; do
		bin=./dlbtune; [ $b = es ] && bin=.gpu/es/dlbtune
		timeout -s INT -k 10 200 $bin --op gemm --prec fp32 --suite $d/fewrows_rows.csv --fp32-math ffma -v \
			--db /tmp/db61$b --csv >$OUT/rows_$b.csv 2>$OUT/rows_$b.err
		echo "== $b: exit $? at $(( $(date +%s) - t0 )) s"
	done
	python3 - $OUT/rows_hd.csv $OUT/rows_es.csv <<'PY'
import csv, math, sys
key = lambda r: (r['m'], r['n'], r['k'], r['layout'])
hd = {key(r): r for r in csv.DictReader(open(sys.argv[1]))}
es = {key(r): r for r in csv.DictReader(open(sys.argv[2]))}
gm = lambda x: math.exp(sum(map(math.log, x)) / len(x)) if x else float('nan')
t, ph, pe = [], [], []
for k in es:
    if k not in hd: continue
    a, b = hd[k], es[k]
    t.append(float(b['paired_tuned_us']) / float(a['paired_tuned_us'])); ph.append(float(a['paired_speedup'])); pe.append(float(b['paired_speedup']))
    print(f"  {'x'.join(k[:3])} {k[3]}: hd {float(a['paired_tuned_us']):.1f} us ({a['paired_speedup']}x), es {float(b['paired_tuned_us']):.1f} us ({b['paired_speedup']}x) {b['best_config'][:40]} verified {b['verified']}")
print(f"  {len(t)} rows: time es/hd {gm(t):.3f}, paired {gm(ph):.3f}x -> {gm(pe):.3f}x")
PY
	;;
esac
gzip -f $OUT/*.err 2>/dev/null
