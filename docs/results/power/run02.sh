#!/bin/bash
# Device call 2 for power and clocks (issue 31): NVML through dlopen in the worker; after the 30 pairs, each of
# the winner and the vendor best runs back to back for 200 ms (--power-ms default) while the energy counter,
# power, SM clock and clock-event reasons are read. One speech layer (700x161 c1 n32 k32 20x5 stride 2), KIND 3
# alone, in fp16 NHWC and fp32 NCHW; then --power-ms 1000 on the fp16 one, to see how the counter's
# resolution moves J/call. (run02: readings from a thread of their own; run01 took them between launches.)
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit,power.draw --format=csv,noheader
shape="--w 700 --h 161 --c 1 --n 32 --k 32 --s 20 --r 5 --stride-w 2 --stride-h 2"
cols='NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "prec,tuned_us,vendor_best,paired,J/call,vendor J/call,per W,vendor per W,W,vendor W,W max,SM MHz,vendor SM MHz,events,vendor events"; next }
{ print $c["prec"] "," $c["tuned_us"] "," $c["vendor_best"] "," $c["paired_speedup"] "," $c["tuned_j_per_call"] "," $c["vendor_j_per_call"] "," $c["tuned_per_watt"] "," $c["vendor_per_watt"] "," $c["tuned_watts"] "," $c["vendor_watts"] "," $c["tuned_watts_max"] "," $c["tuned_sm_mhz"] "," $c["vendor_sm_mhz"] "," $c["tuned_clock_events"] "," $c["vendor_clock_events"] }'
./dlbtune --op conv --prec fp16 --layout nhwc $shape --only 'KIND=3' --db /tmp/dbp -v --csv >$OUT/fp16.csv 2>$OUT/fp16.err
echo "== fp16: exit $?"; awk -F, "$cols" $OUT/fp16.csv
./dlbtune --op conv --prec fp32 $shape --only 'KIND=3' --db /tmp/dbp -v --csv >$OUT/fp32.csv 2>$OUT/fp32.err
echo "== fp32: exit $?"; awk -F, "$cols" $OUT/fp32.csv
./dlbtune --op conv --prec fp16 --layout nhwc $shape --only 'KIND=3' --db /tmp/dbp2 --power-ms 1000 -v --csv >$OUT/fp16_1s.csv 2>$OUT/fp16_1s.err
echo "== fp16 --power-ms 1000: exit $?"; awk -F, "$cols" $OUT/fp16_1s.csv
grep -h "note: no power" $OUT/*.err | head -2
./dlbtune export --format json --db /tmp/dbp > $OUT/export.json 2>/dev/null; grep -m1 -o '"cpu": "[^"]*"' $OUT/export.json
gzip -f $OUT/*.err
