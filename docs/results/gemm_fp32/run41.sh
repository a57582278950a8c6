#!/bin/bash
# Device call 41 for issue 30, prepared 2026-11-28: what run40 meant to measure and did not (its KIND 3-alone
# runs returned no rows and their errors were not kept; this script's tries in the calls of sparse run58 and run60
# named parts of configurations (--only takes a run of words of one, in order), then whole ones, too long). KIND 3 of
# next_kind3_pipelined.diff (.gpu/dlbtune_k3, built from 84f4ca2 with the diff) alone, each of its 256x128 and
# 128x128 tiles, on NN 5124x9124x2560 and NT 4096x7133x4096, beside the default build's KIND 0 winner of run40.
# Prediction (item 102): 68-72% of peak NN, 70-75% NT; run40's default search says below KIND 0's 65%.
. .gpu/env.sh
exec > >(tee $OUT/log41.txt) 2>&1
for shape in "5124 9124 2560 0 0" "4096 7133 4096 0 1"; do
	read m n k ta tb <<<"$shape"
	# (the whole configurations are 66-68 characters: over the 63 .gpu/dlbtune_k3's --only takes, which
	# refused them in run58's and run60's calls; each text below keeps both STAGES)
	for cfg in "BM=256 BN=128 BK=8 TM=8 TN=16 KIND=3" "BM=256 BN=128 BK=16 TM=8 TN=16 KIND=3" \
		"BM=128 BN=128 BK=8 TM=8 TN=16 KIND=3"; do
		timeout 30 .gpu/dlbtune_k3 --op gemm --prec fp32 --m $m --n $n --k $k --ta $ta --tb $tb --only "$cfg" \
			--db /tmp/db_k3one --csv >/tmp/one.csv 2>>$OUT/k3one.err
		echo "-- exit $?" >>$OUT/k3one.err
		python3 - /tmp/one.csv "$cfg" "$m" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("  %s %-48s %9s us %6s%% peak, paired %s" % (sys.argv[3], sys.argv[2][:48], r["tuned_us"], r["pct_peak"],
          r["paired_speedup"]))
PY
	done
done
