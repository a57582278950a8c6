#!/bin/bash
# Device call 4 for power and clocks (issue 31): the energy poller as fixed after the report's run01 and run03
# (the counter alone read every 1 ms and each read timed; power, clock and reasons every 20 ms; no CUDA call from
# the poller; ABBA bursts). Five GEMM rows of the report's run01, among them those whose own bursts implied
# 1200-1300 W under the 700 W cap, with a short search: each side's implied mean power, steps and readings.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
printf 'm,n,k,a_t,b_t\n8448,6000,2816,0,0\n7680,6000,2560,0,0\n512,1,500000,0,0\n512,2,500000,0,0\n35,700,2048,0,0\n' >/tmp/s.csv
for p in fp16 int8; do
	./dlbtune --op gemm --prec $p --suite /tmp/s.csv --db /tmp/db4 --budget 24 --min-search 1 -v --csv >$OUT/$p.csv 2>$OUT/$p.err
	echo "== $p: exit $?"
	grep "energy of" $OUT/$p.err | sed -e 's/^ *//' -e 's/\(energy of [a-z ]*\): \([0-9]*\) calls in \([0-9.]*\) s, \([0-9.na]*\) J/\1 \2 calls \3 s \4 J/' | cut -c1-200
done
./dlbtune export --format json --db /tmp/db4 2>/dev/null | python3 -c '
import json,sys
for r in json.load(sys.stdin)["records"]:
    e=r["best"].get("paired",{}).get("energy") or {}
    out=[]
    for side in ("tuned","vendor"):
        x=e.get(side) or {}
        w=x["joules"]/x["seconds"] if x.get("steady") and x.get("joules") else float("nan")
        out.append("%s %.0f W (%s steps, %s readings, %s-%s MHz)"%(side,w,x.get("steps"),x.get("readings"),x.get("sm_mhz_min"),x.get("sm_mhz_max")))
    print(r["prec"], r["key"].split("|")[4], "; ".join(out))
' | tee $OUT/watts.txt
gzip -f $OUT/*.err
