#!/bin/bash
# Device call 5 for issue 30, item 5: DeepBench's gemm inference_server suite in int8 against the vendor with
# the TN route (cublasLt-TN#a) among its entries; default search but --min-search 1 to fit the device time.
# Interrupted at 470 s if not done: the rows tuned by then are in the database and exported.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
timeout -s INT -k 15 470 ./dlbtune --op gemm --prec int8 --suite inference_server --db /tmp/db5 --min-search 1 \
	2>&1 >/dev/null | grep "^\[" | cut -c1-230; echo "tune exit ${PIPESTATUS[0]}"
./dlbtune export --format csv --db /tmp/db5 2>/dev/null > $OUT/int8_inf.csv
python3 - $OUT/int8_inf.csv <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def gm(v): return math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
sp = [float(r["paired_speedup"]) for r in rows if r.get("paired_speedup")]
tn = sum(1 for r in rows if r.get("vendor_best", "").startswith("cublasLt-TN"))
print("%d rows, paired geomean %.3f, min %.3f, max %.3f; vendor best is a TN-route entry on %d rows" % (len(rows), gm(sp), min(sp), max(sp), tn))
for lay in sorted(set(r["layout"] for r in rows)):
    v = [float(r["paired_speedup"]) for r in rows if r["layout"] == lay and r.get("paired_speedup")]
    print("  %s: %d rows, geomean %.3f" % (lay, len(v), gm(v)))
PY
tar czf $OUT/db5.tgz -C /tmp db5 2>/dev/null
echo "== total $(( $(date +%s) - t0 )) s"
