#!/bin/bash
# Device call 36 for issue 30, prepared 2026-11-28: why ncu counted about 1300 instructions a k-tile in our NT
# kernel (4096x7133x4096, KIND 0 128x64 BK16 8x8: 4.77 G against cuBLAS's 4.28 G, run35) where its SASS's
# interior path has about 1150 (NOTES item 97). ncu's source page (SourceCounters) gives each SASS instruction's
# executions; summed by opcode they show what runs more often than the static census. The same for cuBLAS's
# kernel. Needs a Firecracker machine (nvidia-h200 is one; KINDS.md).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
for who in ours:gemm_nt cublas:'xmma|sgemm|cutlass'; do
	name=${who%%:*} re=${who#*:}
	timeout -k 5 200 ncu --clock-control none --target-processes all -k regex:"$re" --launch-skip 2 --launch-count 1 \
		--section SourceCounters --page source --print-source sass --csv \
		./dlbtune --op gemm --prec fp32 --m 4096 --n 7133 --k 4096 --ta 0 --tb 1 \
		--only "BM=128 BN=64 BK=16 TM=8 TN=8 KIND=0" --power-ms 0 --fixed-samples 2 --db /tmp/db_src_$name \
		>$OUT/src_$name.csv 2>$OUT/src_$name.err
	echo "== ncu source page, $name: exit $? at $(( $(date +%s) - t0 )) s, $(wc -l <$OUT/src_$name.csv) lines"
	tail -3 $OUT/src_$name.err
done
for f in $OUT/src_ours.csv $OUT/src_cublas.csv; do
	python3 - "$f" <<'PY'
import collections, csv, re, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 3]
hdr = next((i for i, r in enumerate(rows) if any("Source" in c for c in r)), None)
if hdr is None:
    print("  %s: no source table" % sys.argv[1]); sys.exit()
h = rows[hdr]
src = next(i for i, c in enumerate(h) if "Source" in c)
ex = next((i for i, c in enumerate(h) if c.strip().lower() in ("instructions executed", "warp instructions executed")), None)
print("  %s: columns %s" % (sys.argv[1].split("/")[-1], ", ".join(h[:12])))
if ex is None:
    sys.exit()
cnt = collections.Counter()
for r in rows[hdr + 1:]:
    try:
        n = float(r[ex].replace(",", ""))
    except ValueError:
        continue
    op = re.sub(r"^@!?U?P\w+\s+", "", r[src].strip()).split(" ")[0]
    cnt[op] += n
tot = sum(cnt.values())
print("  total %.3g warp instructions" % tot)
for op, n in cnt.most_common(25):
    print("  %-28s %12.4g %5.1f%%" % (op, n, 100 * n / tot))
PY
done
