#!/bin/bash
# Device calls 53 for issue 30, prepared 2026-11-29 (the tenth session), run 2026-11-30 on an H200 (logs/run53; PART=3 not run). Landed.
# the diff (landed with run53): the FFMA tile and skinny kernels (KIND 0, 2) programmatic dependent launches on sm_90
# (gemm.c's gemm_launch; templates/gemm_fp32.cu's gemm_overlap_prior: the trigger, then griddepcontrol.wait
# before the first global access), as conv's run106 (docs/NOTES.md items 156, 158). Static: registers of all 373
# KIND 0 and 2 candidates (NN and TN) unchanged; the 64x64, 128x64 and 128x128 8x16 tiles' SASS the same but for
# PREEXIT, ACQBULK and one moved S2UR.
# Build here:
#   make -j2 && mkdir -p .gpu/gbase && cp dlbtune .gpu/gbase/                     (the landed build)
#   git apply docs/results/gemm_fp32/next_gemm_pdl.diff && make -j2 && make -j2 tests/gpu_gemm_verify
#   mkdir -p .gpu/gpdl && cp tests/gpu_gemm_verify .gpu/gpdl/                      (./dlbtune: PDL)
# Carry dlbtune and .gpu.
# PART=1: gpu_gemm_verify fp32 on every KIND 0 and 2 candidate, every split, 14 shapes x 4 layouts.
# PART=2: A/B on every third row of gemm_inference_server (pdl_rows.csv: 9 with N <= 16, 15 of >= 1 GFLOP, 1
#   under), `--fp32-math ffma`, default search, --min-search 2, fresh databases, the builds in turn (about 110 s
#   each).
# PART=3: gemm_inference_server whole with ffma on the PDL build (run51: 1.100x; N <= 16 1.623x, >= 1 GFLOP
#   0.892x), about 310 s.
# Prediction: N <= 16 rows (5-40 µs) 0.3-0.6 µs faster each (2-6%), the >= 1 GFLOP rows within 1% (0-1% faster);
#   PART=3's >= 1 GFLOP class 0.892x -> 0.89-0.90x: not the 0.95x target, which is the FFMA loop's schedule.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/gemm_fp32
t0=$(date +%s)
summary() { python3 - "$@" <<'PY'
import csv, math, sys
g = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
cls = lambda r: "N <= 16" if int(r["n"]) <= 16 else ("< 1 GFLOP" if 2 * int(r["m"]) * int(r["n"]) * int(r["k"]) < 1e9 else ">= 1 GFLOP")
runs = [[r for r in csv.DictReader(open(f)) if r.get("paired_speedup")] for f in sys.argv[1:]]
for f, rows in zip(sys.argv[1:], runs):
    print("  %s: %d rows, paired %.3f; %s" % (f.split("/")[-1], len(rows), g([float(r["paired_speedup"]) for r in rows]),
          ", ".join("%s %.3f" % (c, g([float(r["paired_speedup"]) for r in rows if cls(r) == c])) for c in ("N <= 16", "< 1 GFLOP", ">= 1 GFLOP"))))
if len(runs) == 2:
    key = lambda r: (r["m"], r["n"], r["k"], r["layout"])
    b = {key(r): r for r in runs[0]}
    pairs = [(b[key(r)], r) for r in runs[1] if key(r) in b]
    for c in ("N <= 16", "< 1 GFLOP", ">= 1 GFLOP"):
        x = [float(a["tuned_us"]) / float(o["tuned_us"]) for o, a in pairs if cls(a) == c]
        if x:
            print("  %-10s pdl / base time %.3f over %d rows (min %.3f, max %.3f)" % (c, g(x), len(x), min(x), max(x)))
    for o, a in pairs:
        print("    %5s %5s %5s %s %9s %9s %s -> %s" % (a["m"], a["n"], a["k"], a["layout"], o["tuned_us"], a["tuned_us"],
              o["paired_speedup"], a["paired_speedup"]))
PY
}
case "${PART:-1}" in
1)
	DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY='KIND=0|KIND=2' timeout -s INT -k 5 560 .gpu/gpdl/gpu_gemm_verify fp32 >$OUT/verify.txt 2>&1
	echo "== gpu_gemm_verify fp32 KIND 0 and 2: exit $? at $(( $(date +%s) - t0 )) s"
	grep "gpu_gemm_verify" $OUT/verify.txt | tail -4
	gzip -f $OUT/verify.txt
	;;
2)
	for b in base pdl; do
		bin=./dlbtune; [ $b = base ] && bin=.gpu/gbase/dlbtune
		timeout -s INT -k 5 200 $bin --op gemm --prec fp32 --suite $d/pdl_rows.csv --db /tmp/dbg_$b --min-search 2 \
			--fp32-math ffma --csv >$OUT/ab_$b.csv 2>/tmp/ab_$b.err
		echo "== every third inference_server row, ffma, $b: exit $? at $(( $(date +%s) - t0 )) s"
	done
	summary $OUT/ab_base.csv $OUT/ab_pdl.csv
	cat /tmp/ab_*.err | gzip >$OUT/ab.err.gz
	;;
3)
	timeout -s INT -k 10 560 ./dlbtune --op gemm --prec fp32 --suite src/ops/gemm/suites/gemm_inference_server.csv \
		--db /tmp/dbi --min-search 2 --fp32-math ffma --csv >$OUT/inference_ffma.csv 2>$OUT/inference_ffma.err
	echo "== inference_server ffma: exit $? at $(( $(date +%s) - t0 )) s"
	summary $OUT/inference_ffma.csv
	gzip -f $OUT/inference_ffma.err
	;;
esac
