#!/bin/bash
# Device call 5 for the kernel cache (issue 27): `dlbtune compile` prepares the cache for the fp16
# gemm_inference_server suite, then the suite runs on a fresh result database with that warm cache: no NVRTC
# call. Its winners are compared (here, afterwards) with the cold run's of call 4.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
s=$(date +%s%N)
./dlbtune compile --op gemm --prec fp16 --suite inference_server --db /tmp/s2 >/tmp/c.log 2>&1
echo "== compile --suite inference_server: exit $?, wall $(( ($(date +%s%N) - s) / 1000000 )) ms"; tail -2 /tmp/c.log
s=$(date +%s%N)
timeout -s INT -k 10 400 ./dlbtune --op gemm --prec fp16 --suite inference_server --db /tmp/s2 --csv -v >$OUT/suite_warm.txt 2>$OUT/suite_warm.err
echo "== suite_warm: exit $?, wall $(( ($(date +%s%N) - s) / 1000000 )) ms"
grep -E "candidates for|^kernels:|geomean|error|warning|fresh worker" $OUT/suite_warm.err | cut -c1-250 | tail -6
grep -c "kernels: 0 compiled" $OUT/suite_warm.err
