#!/bin/bash
# Device call 97 (docs/NOTES.md item 288), 2026-12-03: what the L2 flush that reads (5fff2aa, ./dlbtune) does to
# convolution, against .gpu/old/dlbtune (70e9d7b, the memset flush): 8 batch-1 rows of the small, latency-bound
# kind (conv8_rows.csv, from docs/results/conv/batch1_speech_inference.csv), fp32, one kernel cache for both.
# Carry dlbtune and .gpu (as run96).
# Prediction: both sides 0.85-0.97 of their old time; paired speedups within a few percent either way.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
for b in old clean; do
	bin=./dlbtune; [ $b = old ] && bin=.gpu/old/dlbtune
	[ $b = clean ] && mkdir -p /tmp/dbc_clean && cp -r /tmp/dbc_old/kernels /tmp/dbc_clean/ # the same cubins
	timeout -s INT -k 10 200 $bin --op conv --prec fp32 --suite docs/results/sparse/conv8_rows.csv --db /tmp/dbc_$b \
		--csv >$OUT/conv_$b.csv 2>$OUT/conv_$b.err
	echo "== conv 8 rows, $b: exit $? at $(( $(date +%s) - t0 )) s"
	gzip -f $OUT/conv_$b.err
done
python3 - $OUT/conv_old.csv $OUT/conv_clean.csv <<'PY'
import csv, math, sys
b, a = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
f = lambda r, c: float(r[c]) if c != "vendor_us" else float(r["tuned_us"]) * float(r["speedup"])
lab = lambda r: "x".join(r[c] for c in ("w", "h", "c", "k", "r", "s") if c in r)
print("  %-22s %8s %8s %6s %8s %8s %6s %7s %7s" % ("row", "ours old", "new", "n/o", "vend old", "new", "n/o",
      "pair o", "pair n"))
for x, z in zip(b, a):
    print("  %-22s %8.2f %8.2f %6.3f %8.2f %8.2f %6.3f %7s %7s" % (lab(x), f(x, "tuned_us"), f(z, "tuned_us"),
          f(z, "tuned_us") / f(x, "tuned_us"), f(x, "vendor_us"), f(z, "vendor_us"),
          f(z, "vendor_us") / f(x, "vendor_us"), x["paired_speedup"], z["paired_speedup"]))
print("  ours new/old %.3f, vendor new/old %.3f; paired %.3f -> %.3f (%d rows)" % (
      gm([f(z, "tuned_us") / f(x, "tuned_us") for x, z in zip(b, a)]),
      gm([f(z, "vendor_us") / f(x, "vendor_us") for x, z in zip(b, a)]),
      gm([float(x["paired_speedup"]) for x in b]), gm([float(z["paired_speedup"]) for z in a]), len(a)))
PY
