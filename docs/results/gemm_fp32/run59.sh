#!/bin/bash
# Device call 59 for fp32 GEMM (issue 30), 2026-12-01. run58 (NOTES 224): on 35x8457x4096 NN the tile winner
# (BM 16 TM 8 TN 2) reads B from DRAM about once (152 MB against B's 139) and is not memory-bound; it computes
# 48 rows for M = 35 (three 16-row M-tiles), 27% of its FFMAs on rows past M. The change (b8): BM 8 for tiles
# (10 configurations, 394 -> 404 within the limits; skinny keeps BM >= 16), so 35 rows cost 40 (five 8-row tiles).
# PART=1 (about 20 s): DLB_VERIFY_ONLY='BM=8 ' gpu_gemm_verify fp32 on b8: 0 wrong, 0 errors.
# PART=2 (about 150 s): fewrows_rows.csv (the 12 M = 35 rows), --fp32-math ffma, default search, fresh databases,
#   HEAD (hd) then b8. Prediction: where a BM 8 tile wins, its time is 0.85-0.92 of hd's (FFMAs 40/48 of the
#   tile's, B read 5 times from L2 instead of 3); the 12 rows 0.838x -> 0.90-0.95x.
# Build: make with the change, make tests/gpu_gemm_verify, copy both to .gpu/b8; HEAD's dlbtune to .gpu/hd.
# One call: mkdir -p $OUT && OUT=$OUT bash docs/results/gemm_fp32/run59.sh. Carry .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
t0=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY='BM=8 ' timeout 200 .gpu/b8/gpu_gemm_verify fp32 >$OUT/verify_bm8.txt 2>&1
echo "== gpu_gemm_verify fp32 BM=8 (b8): exit $? at $(( $(date +%s) - t0 )) s"; grep -E "candidates on|FAIL" $OUT/verify_bm8.txt | tail -5
for b in hd b8; do
	timeout -s INT -k 10 200 .gpu/$b/dlbtune --op gemm --prec fp32 --suite $d/fewrows_rows.csv --fp32-math ffma -v --db /tmp/db59$b \
		--csv >$OUT/rows_$b.csv 2>$OUT/rows_$b.err
	echo "== $b: exit $? at $(( $(date +%s) - t0 )) s"
done
python3 - $OUT/rows_hd.csv $OUT/rows_b8.csv <<'PY'
import csv, math, sys
key = lambda r: (r['m'], r['n'], r['k'], r['layout'])
hd = {key(r): r for r in csv.DictReader(open(sys.argv[1]))}
b8 = {key(r): r for r in csv.DictReader(open(sys.argv[2]))}
gm = lambda x: math.exp(sum(map(math.log, x)) / len(x)) if x else float('nan')
t, ph, pb = [], [], []
for k in b8:
    if k not in hd: continue
    a, b = hd[k], b8[k]
    t.append(float(b['paired_tuned_us']) / float(a['paired_tuned_us'])); ph.append(float(a['paired_speedup'])); pb.append(float(b['paired_speedup']))
    print(f"  {'x'.join(k[:3])} {k[3]}: hd {float(a['paired_tuned_us']):.1f} us ({a['paired_speedup']}x), b8 {float(b['paired_tuned_us']):.1f} us ({b['paired_speedup']}x) {b['best_config'][:40]} {b['best_config'][-9:]} verified {b['verified']}")
print(f"  {len(t)} rows: time b8/hd {gm(t):.3f}, paired {gm(ph):.3f}x -> {gm(pb):.3f}x")
PY
gzip -f $OUT/*.err
