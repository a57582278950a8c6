#!/bin/bash
# Device call 38 (sparse, issue 29): KIND 3 (B in shared-memory slabs, A in a slab-segmented copy made on the
# host): gpu_spmm (every candidate, KIND 3 included, on the awkward problems); the best of each slab kind alone
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
for k in 1 2 3; do
	s=$(date +%s)
	timeout -k 5 120 ./dlbtune --op spmm --m 7680 --n 1500 --k 2560 --sparsity 0.9:0.95:0.05 --only KIND=$k -v --csv \
		--db $OUT/k$k.db >$OUT/k$k.csv 2>$OUT/k$k.err
	echo "== KIND $k alone: exit $? in $(( $(date +%s) - s )) s"
	grep -E "^\[|data:" $OUT/k$k.err | cut -c1-230
done
s=$(date +%s)
timeout -k 5 240 ./dlbtune --op spmm -v --csv --db $OUT/db >$OUT/suite.csv 2>$OUT/suite.err
echo "== suite: exit $? in $(( $(date +%s) - s )) s"
grep "^geomean" $OUT/suite.err; grep -E "^\[" $OUT/suite.err | cut -c1-200
s=$(date +%s)
cfg=$(sed 's/"[^"]*"/x/g' $OUT/k3.csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == 2 { print $c["config"] }')
echo "ncu on: $cfg"
timeout -k 5 150 ncu --target-processes all -k regex:'^spmm$' -c 2 --metrics \
gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,\
sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,\
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,lts__t_bytes.sum \
	./dlbtune --op spmm --m 7680 --n 1500 --k 2560 --sparsity 0.9 --only "$cfg" --db $OUT/ncu.db \
	>$OUT/ncu.txt 2>&1
echo "== ncu: exit $? in $(( $(date +%s) - s )) s"
grep -vE "^==PROF==|^\[|^ *$" $OUT/ncu.txt | tail -40
