#!/bin/bash
# Device call 3 for power and clocks (issue 31): the joules now from the energy counter's rate between the
# first and last moments it was seen to change once the burst has run a fifth of its time, times the burst's
# GPU time. The speech layer of run01-02 (fp16 NHWC, KIND 3 alone) with 200 ms and 1000 ms bursts, to see
# whether J/call still moves with the burst's length; then conv_inference_server fp16 NHWC on a fresh
# database with the default 200 ms bursts, exported for the report (docs/results/report/).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit,power.draw --format=csv,noheader
shape="--w 700 --h 161 --c 1 --n 32 --k 32 --s 20 --r 5 --stride-w 2 --stride-h 2"
for ms in 200 1000 200; do
	./dlbtune --op conv --prec fp16 --layout nhwc $shape --only 'KIND=3' --db /tmp/dbp$ms --retune --power-ms $ms -v --csv >>$OUT/bursts.csv 2>$OUT/b.err
	echo "== --power-ms $ms: exit $?"; grep "energy of" $OUT/b.err | sed 's/^ *//' | cut -c1-220
done
s=$(date +%s)
timeout -s INT -k 10 480 ./dlbtune --op conv --prec fp16 --layout nhwc --suite inference_server --db /tmp/dbI -v --csv >$OUT/inference_fp16.csv 2>$OUT/inference_fp16.err
echo "== conv_inference_server fp16 NHWC: exit $? in $(( $(date +%s) - s )) s; $(grep -c "^\[" $OUT/inference_fp16.err) rows"
grep -E "wrong|fault" $OUT/inference_fp16.err | grep -v " 0 wrong, 0 faults" | cut -c1-200 | tail -3
grep -c "energy of ours" $OUT/inference_fp16.err
./dlbtune export --format json --db /tmp/dbI 2>/dev/null | gzip > $OUT/inference_fp16_export.json.gz
gzip -f $OUT/*.err
