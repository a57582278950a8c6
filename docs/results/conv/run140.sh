#!/bin/bash
# Device calls 140 for convolution (issue 28), 2026-12-01 (a twelfth session). conv_training fp16 NHWC whole on
# HEAD's kernels (its last figure, 1.277x, is stitched from run131, run133 and run134, before item 231 moved the
# wgmma and halo kernels' set-up before their wait), default search, in two shards (--shard 0/2 and 1/2: counted from 0), one a call.
# Prediction: 1.28-1.31x (item 231 took 2-4% off the batch-1 rows' time; training rows are larger, so less).
# One call each: mkdir -p $OUT && OUT=$OUT SHARD=0 or 1 bash docs/results/conv/run140.sh. Carry dlbtune and .gpu.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
timeout -s INT -k 10 ${LIMIT:-560} ./dlbtune --op conv --prec fp16 --layout NHWC --suite training --shard ${SHARD:-1}/2 -v \
	--db /tmp/db140 --csv >$OUT/training_$SHARD.csv 2>$OUT/training_$SHARD.err
echo "== conv_training fp16 NHWC shard $SHARD/2: exit $? at $(( $(date +%s) - t0 )) s"
python3 - $OUT/training_$SHARD.csv <<'PY'
import csv, math, sys
r = list(csv.DictReader(open(sys.argv[1])))
p = [float(x['paired_speedup']) for x in r if x.get('paired_speedup')]
print(f"  {len(r)} rows, {sum(x['verified'] == '1' for x in r)} verified, paired geomean {math.exp(sum(map(math.log, p)) / len(p)):.3f}")
PY
gzip -f $OUT/*.err
