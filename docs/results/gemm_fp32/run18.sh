#!/bin/bash
# Device call 18 for issue 30, with TF32_PROMOTE 2 (run17) as the default:
# 1. The accuracy table the issue asks for: 1024x128xK, K = 128, 4096, 65536, 500000, and 2048^3, each searched
#    twice (the 3xTF32 family alone, and --fp32-math ffma), so each row has FFMA's, 3xTF32's, cuBLAS's strict
#    fp32 best's and cuBLAS TF32's error at 16 sampled outputs against the exact sum in double.
# 2. DeepBench gemm inference_server, fp32, the full space (default search but --min-search 2, as run10), to
#    measure the suite with the faster 3xTF32 (run10: 1.340x); whatever the time left allows.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
for k in 128 4096 65536 500000; do
	for r in "--only family:3xTF32" "--fp32-math ffma"; do
		timeout 100 ./dlbtune --op gemm --prec fp32 --m 1024 --n 128 --k $k $r --min-search 2 --power-ms 0 \
			--db /tmp/acc --csv >/dev/null 2>>$OUT/acc.err || echo "1024x128x$k $r: exit $?"
	done
done
for r in "--only family:3xTF32" "--fp32-math ffma"; do
	timeout 100 ./dlbtune --op gemm --prec fp32 --m 2048 --n 2048 --k 2048 $r --min-search 2 --power-ms 0 \
		--db /tmp/acc --csv >/dev/null 2>>$OUT/acc.err || echo "2048^3 $r: exit $?"
done
echo "== accuracy runs $(( $(date +%s) - t0 )) s"
for r in "--only family:3xTF32" "--fp32-math ffma"; do ./dlbtune export --format json --db /tmp/acc $r; done >$OUT/acc.json 2>/dev/null
python3 - $OUT/acc.json <<'PY'
import json, sys
txt = open(sys.argv[1]).read()
dec, i, docs = json.JSONDecoder(), 0, []
while i < len(txt):
    while i < len(txt) and txt[i].isspace(): i += 1
    if i >= len(txt): break
    d, i = dec.raw_decode(txt, i); docs.append(d)
for d in docs:
    for r in d["records"]:
        b = r["best"]; e = b.get("rel_err") or {}
        fam = b.get("config", "")
        tf32 = [v for v in r["vendor"] if v.get("other_math") and v.get("rel_err")]
        strict = [v for v in r["vendor"] if v.get("ok") and not v.get("other_math") and not v.get("floor") and v.get("rel_err")]
        sb = min(strict, key=lambda v: v["stats"]["median_us"]) if strict else None
        print("%s %sx%sx%s %-60s ours %.1f us %.2e/%.2e | strict %s %.1f us %.2e/%.2e | TF32 %.1f us %.2e/%.2e" % (
            r["key"].split("|only=")[-1] if "|only=" in r["key"] else "full", r["m"], r["n"], r["k"], fam[:60],
            b["tuned"]["median_us"], e.get("max", -1), e.get("mean", -1),
            sb["name"] if sb else "-", sb["stats"]["median_us"] if sb else -1, sb["rel_err"]["max"] if sb else -1, sb["rel_err"]["mean"] if sb else -1,
            tf32[0]["stats"]["median_us"] if tf32 else -1, tf32[0]["rel_err"]["max"] if tf32 else -1, tf32[0]["rel_err"]["mean"] if tf32 else -1))
PY
left=$(( 560 - ($(date +%s) - t0) ))
echo "== inference_server fp32 full space, $left s"
timeout -s INT -k 10 $left ./dlbtune --op gemm --prec fp32 --suite inference_server --min-search 2 --power-ms 0 \
	--db /tmp/inf --csv >$OUT/inf.csv 2>$OUT/inf.err; echo "exit $?: $(($(wc -l <$OUT/inf.csv) - 1)) rows"
grep -E "geomean" $OUT/inf.err | tail -3
gzip $OUT/*.err
echo "== total $(( $(date +%s) - t0 )) s"
