#!/bin/bash
# Device call 40 (sparse, issue 29): KIND 3 with its next nonzero read an iteration ahead, two a loop, and MINB
# (launch bounds; run39: 24% of the warps active, short-scoreboard stalls): gpu_spmm (every candidate, KIND 3 included, on the awkward problems); KIND 3 alone
# on the 7680x1500x2560 rows at 90% and 95%; DeepBench's suite with the default search; counters of one KIND 3
# kernel from ncu where the device lets it read them.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 240 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed|ok, " $OUT/gspmm.log | tail -14
for k in 3; do
	s=$(date +%s)
	timeout -k 5 120 ./dlbtune --op spmm --m 7680 --n 1500 --k 2560 --sparsity 0.9:0.95:0.05 --only KIND=$k -v --csv \
		--db $OUT/k$k.db >$OUT/k$k.csv 2>$OUT/k$k.err
	echo "== KIND $k alone: exit $? in $(( $(date +%s) - s )) s"
	grep -E "^\[|data:" $OUT/k$k.err | cut -c1-230
done
s=$(date +%s)
timeout -k 5 240 ./dlbtune --op spmm -v --csv --db $OUT/db >$OUT/suite.csv 2>$OUT/suite.err
echo "== suite: exit $? in $(( $(date +%s) - s )) s"
timeout 60 ./dlbtune --op spmm --db $OUT/db 2>&1 | tail -1; grep -E "^\[" $OUT/suite.err | cut -c1-200
s=$(date +%s)
cfg=$(grep -oE "KIND=3 [A-Z0-9= ]*MINB=[0-9]" $OUT/k3.err | head -1)
echo "ncu on: $cfg"
timeout -k 5 100 ncu --target-processes all -k regex:'^spmm$' -c 1 --metrics \
gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,\
lts__t_bytes.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,\
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio \
	./dlbtune --op spmm --m 7680 --n 1500 --k 2560 --sparsity 0.9 --only "$cfg" --db $OUT/ncu.db >$OUT/ncu.txt 2>&1
echo "== ncu: exit $? in $(( $(date +%s) - s )) s"
grep -E "^ +[a-z_]+__" $OUT/ncu.txt | awk '{print $1, $(NF-1), $NF}'
rm -rf $OUT/k*.db $OUT/ncu.db $OUT/db
