#!/bin/bash
# Device call 94 (sparse, issue 29), 2026-12-03: the sparsity sweep again with run93's kernels (e482bfc; run82's
# was 5c8880c, before KIND 3's lean walk, decoupled warps and shared-out last wave): 7680x1500x2560 fp32, uniform,
# 99% down to 70% a point at a time, default search, `--samples 5 --paired 10`, one database. Each point its own
# call, so a cut run keeps the points before it.
# Prediction: ahead of cuSPARSE at every sparsity (1.5-1.9x), ahead of dense down to 75-78%.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
for sp in $(seq 0.99 -0.01 0.70); do
	[ $(( $(date +%s) - t0 )) -gt ${STOP_S:-280} ] && { echo "(stopped before $sp: the call's time)"; break; }
	timeout -s INT -k 5 60 ./dlbtune --op spmm --prec fp32 --m 7680 --n 1500 --k 2560 --sparsity $sp --samples 5 \
		--paired 10 --db /tmp/sweep --csv 2>>/tmp/sweep.err >/tmp/one.csv
	echo "== $sp: exit $? at $(( $(date +%s) - t0 )) s"
	[ -s $OUT/sweep.csv ] && tail -n +2 /tmp/one.csv >>$OUT/sweep.csv || cat /tmp/one.csv >>$OUT/sweep.csv
done
python3 - $OUT/sweep.csv <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("  %s | %-50s %9s us | %-10s %9s us | dense %9s us | paired %s | ours wrt dense %s" % (r["sparsity"],
          r["best_config"][:50], r["tuned_us"], r["cusparse_algo"], r["cusparse_us"], r["dense_us"], r["paired_speedup"],
          r["speedup_wrt_dense"]))
PY
gzip -c /tmp/sweep.err >$OUT/sweep.err.gz
