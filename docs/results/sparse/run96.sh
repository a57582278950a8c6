#!/bin/bash
# Device calls 96 (issue 29; docs/NOTES.md item 287), 2026-12-03: the build whose L2 flush reads its buffer
# (5fff2aa, ./dlbtune) checked and measured; .gpu/old/dlbtune is 70e9d7b (the memset flush) for the GEMM A/B.
# Build here: make && make check TESTS= (the GPU tests' binaries); ./dlbtune compile --op spmm --prec fp32
#   --arch sm_90a --db .gpu/dbseed; ../shared/gpu/bundle .gpu ./dlbtune; carry dlbtune, .gpu, tests/gpu_faults,
#   tests/gpu_gemm_verify.
# PART=1: the GPU tests that time through the harness (gpu_faults, gpu_tune_cache, gpu_model, gpu_spmm), then the
#   fp32 sparse suite again (run95's clean half had 2.026x). PART=2: gpu_faults again (PART=1 found its template
#   without the TMA tile's transpose kernel, missing since 765c5ee); the fp16 sparse suite; the first 8 rows of
#   the fp32 GEMM inference N <= 16 rows with each build (one kernel cache), to show what the flush does to
#   another op.
# Prediction: the tests pass; fp32 sparse 2.00-2.05x; fp16 2.13-2.25x; GEMM N <= 4 rows 0.75-0.95 of their old
#   time on both sides.
. .gpu/env.sh
export top_builddir=. top_srcdir=. DLB_REQUIRE_GPU=1
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/sparse
t0=$(date +%s)
case "${PART:-1}" in
1)
	fail=0
	for t in tests/gpu_faults tests/gpu_tune_cache.sh tests/gpu_model.sh tests/gpu_spmm.sh; do
		n=$(basename $t .sh)
		timeout -k 5 240 ./$t >$OUT/$n.log 2>&1
		rc=$?; [ $rc = 0 ] || fail=1
		echo "== $t: exit $rc at $(( $(date +%s) - t0 )) s"
		grep -E "FAIL|passed|failed|WRONG|ERROR" $OUT/$n.log | cut -c1-160 | tail -3
		gzip -f $OUT/$n.log
	done
	test $fail = 0 && echo "== the GPU tests that time: all passed"
	rm -rf /tmp/db32 && cp -r .gpu/dbseed /tmp/db32
	timeout -s INT -k 10 200 ./dlbtune --op spmm --prec fp32 --db /tmp/db32 --csv >$OUT/suite_fp32.csv \
		2>$OUT/suite_fp32.err
	echo "== sparse suite fp32: exit $? at $(( $(date +%s) - t0 )) s"
	python3 $d/table.py $OUT/suite_fp32.csv | grep -E "geomean|^- "
	gzip -f $OUT/suite_fp32.err
	;;
2)
	timeout -k 5 120 ./tests/gpu_faults >$OUT/gpu_faults.log 2>&1
	echo "== tests/gpu_faults (with the fault template's transpose): exit $? at $(( $(date +%s) - t0 )) s"
	grep -E "checks|FAIL" $OUT/gpu_faults.log | tail -3
	gzip -f $OUT/gpu_faults.log
	timeout -s INT -k 10 250 ./dlbtune --op spmm --prec fp16 --db /tmp/db16 --csv >$OUT/suite_fp16.csv \
		2>$OUT/suite_fp16.err
	echo "== sparse suite fp16: exit $? at $(( $(date +%s) - t0 )) s"
	python3 $d/table.py $OUT/suite_fp16.csv | grep -E "geomean|^- "
	gzip -f $OUT/suite_fp16.err
	head -9 docs/results/gemm_fp32/inference_n16.csv >/tmp/g8.csv
	for b in old clean; do
		bin=./dlbtune; [ $b = old ] && bin=.gpu/old/dlbtune
		[ $b = clean ] && mkdir -p /tmp/dbg_clean && cp -r /tmp/dbg_old/kernels /tmp/dbg_clean/ # the same cubins
		timeout -s INT -k 10 130 $bin --op gemm --prec fp32 --suite /tmp/g8.csv --db /tmp/dbg_$b --csv \
			>$OUT/gemm_$b.csv 2>$OUT/gemm_$b.err
		echo "== gemm 8 rows, $b: exit $? at $(( $(date +%s) - t0 )) s"
		gzip -f $OUT/gemm_$b.err
	done
	python3 - $OUT/gemm_old.csv $OUT/gemm_clean.csv <<'PY'
import csv, math, sys
b, a = (list(csv.DictReader(open(f))) for f in sys.argv[1:3])
gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
f = lambda r, c: float(r[c]) if c != "vendor_us" else float(r["tuned_us"]) * float(r["speedup"])
print("  %-16s %8s %8s %6s %8s %8s %6s %7s %7s" % ("row", "ours old", "new", "n/o", "vend old", "new", "n/o",
      "pair o", "pair n"))
for x, z in zip(b, a):
    print("  %-16s %8.2f %8.2f %6.3f %8.2f %8.2f %6.3f %7s %7s" % ("%sx%sx%s" % (x["m"], x["n"], x["k"]),
          f(x, "tuned_us"), f(z, "tuned_us"), f(z, "tuned_us") / f(x, "tuned_us"), f(x, "vendor_us"),
          f(z, "vendor_us"), f(z, "vendor_us") / f(x, "vendor_us"), x["paired_speedup"],
          z["paired_speedup"]))
print("  ours new/old %.3f, vendor new/old %.3f; paired %.3f -> %.3f (%d rows)" % (
      gm([f(z, "tuned_us") / f(x, "tuned_us") for x, z in zip(b, a)]),
      gm([f(z, "vendor_us") / f(x, "vendor_us") for x, z in zip(b, a)]),
      gm([f(x, "paired_speedup") for x in b]), gm([f(z, "paired_speedup") for z in a]), len(a)))
PY
	;;
esac
