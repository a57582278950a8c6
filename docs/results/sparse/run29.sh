#!/bin/bash
# Device call 29 (sparse, issue 29): UNR = 4 nonzeros' loads in flight together in every kernel; launch bounds with one
# block a SM (ptxas capped registers and spilled without it); SASS of a KIND 1 and a KIND 2 kernel. Then gpu_spmm and the suite.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|ok, " $OUT/gspmm.log | cut -c1-160 | tail -14
s=$(date +%s)
timeout -k 5 330 ./dlbtune --op spmm -v --csv --db $OUT/db >$OUT/suite.csv 2>$OUT/suite.err
echo "== suite: exit $? in $(( $(date +%s) - s )) s"
tail -5 $OUT/suite.err
timeout 60 ./dlbtune --op spmm --db $OUT/db 2>&1 | tail -30
for k in 1 2; do
	echo "== 7680x1500x2560 at 0.9: best KIND=$k trials"
	./dlbtune db show --db $OUT/db --op spmm --m 7680 --n 1500 --k 2560 --sparsity 0.9 -v 2>&1 | grep "KIND=$k" | grep " ok " |
		sort -k9 -n | head -4 | cut -c1-110
done
nvd=$(command -v nvdisasm || ls /usr/local/cuda*/bin/nvdisasm 2>/dev/null | head -1)
for k in k1 k2; do
	$nvd -c tmp_sass/$k.cubin > $OUT/$k.sass 2>&1
	echo "== $k: $(grep -c '^ */\*[0-9a-f]*\*/' $OUT/$k.sass) instructions"
done
