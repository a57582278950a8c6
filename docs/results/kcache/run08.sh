#!/bin/bash
# Device call 8 for the kernel cache (issue 27), on the machine of call 7: `dlbtune compile` prepares the cache
# for the fp16 gemm_inference_server suite, then the suite runs twice on fresh result databases with that warm
# cache (no NVRTC call). The two warm runs give the search's own spread, against which the cold run's winners
# (call 7) are compared here, afterwards. Arguments: which runs (2, 3; default 2), for the 600-s call limit.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
if [ ! -d /tmp/s2/kernels ]; then
s=$(date +%s%N)
./dlbtune compile --op gemm --prec fp16 --suite inference_server --db /tmp/s2 >/tmp/c.log 2>&1
echo "== compile --suite inference_server: exit $?, wall $(( ($(date +%s%N) - s) / 1000000 )) ms"; tail -2 /tmp/c.log
fi
mkdir -p /tmp/s3 && [ -d /tmp/s3/kernels ] || cp -r /tmp/s2/kernels /tmp/s3/
for r in ${@:-2}; do
	s=$(date +%s%N)
	timeout -s INT -k 10 330 ./dlbtune --op gemm --prec fp16 --suite inference_server --db /tmp/s$r --csv -v \
		>$OUT/suite_warm$r.txt 2>$OUT/suite_warm$r.err
	echo "== suite_warm$r: exit $?, wall $(( ($(date +%s%N) - s) / 1000000 )) ms"
	grep -E "candidates for|^kernels:|geomean|error|warning|fresh worker" $OUT/suite_warm$r.err | cut -c1-250 | tail -4
done
