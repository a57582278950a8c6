#!/bin/bash
# Device calls 3-5 (nvidia-h100-x1): one suite in one precision, default search, a fresh database.
#   P=fp16|int8 S=inference_server|training|FILE TAG=name LIMIT=seconds bash run02.sh
# The tune is interrupted (SIGINT) at LIMIT seconds if it runs that long; what finished is stored and
# exported from the database either way.
. .gpu/env.sh
db=/tmp/db_$TAG
s=$(date +%s)
timeout -s INT ${LIMIT:-520} ./dlbtune --op gemm --prec $P --suite $S --db $db -v --csv >$OUT/$TAG.csv 2>$OUT/$TAG.err
echo "tune $TAG: exit $? in $(( $(date +%s) - s )) s"
./dlbtune export --format csv --db $db >$OUT/${TAG}_export.csv 2>&1
./dlbtune export --format md --db $db >$OUT/${TAG}_export.md 2>&1
grep -i "geomean\|answered\|problems" $OUT/$TAG.err | tail -5
wc -l $OUT/${TAG}_export.csv
