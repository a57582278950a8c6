#!/bin/bash
# Device call 57 (sparse, issue 29), prepared 2026-11-28 without device time. The N = 2 and 4 rows are the
# suite's largest lever now: they read about the same bytes as N = 1 (A's CSR dominates: B is 28-57 KB, C 84-172
# KB) yet run 1.3-1.9x above the harness's stream floor (run53, fp32: 10752x4x3584 at 90% 27.3 us against a floor
# of 14.3, where N = 1 runs 16.4), while N = 1 runs within 1.1-1.2x of it. Brought to 1.2x of the floor, the eight
# N = 2, 4 rows would lift the fp32 suite from 1.57x to about 1.70x and fp16's from 1.88x to about 2.07x.
# Reading the kernel found one cause: KIND 0 and 4 loaded B's VN columns one element at a time (four requests a
# nonzero at VN 4). The build after 2b83c19 loads them as vectors where N is a multiple of the vector width.
# Build the one before as .gpu/dlbtune_old: git worktree add /tmp/old 2b83c19, build there, copy its dlbtune.
# (1) gpu_spmm with this build (every candidate verified; the vector path runs on N = 2, 4, 16, 24, 64, 1500);
# (2) the eight N = 2, 4 rows (n2n4_rows.csv) in fp32 and fp16, default search, .gpu/dlbtune_old then this
# build; (3) ncu on this build's kernels for 10752x4x3584 and 10752x1x3584 at 90% (fp32): where the rest goes.
# Prediction: the N = 4 rows 25-40% faster, N = 2 10-20%; the fp32 suite about 1.65x, fp16 about 1.98x.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
X=$OUT/x # everything but the log and gpu_spmm's, tarred at the end (a call brings back at most 8 files)
mkdir -p $X
s=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 200 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? in $(( $(date +%s) - s )) s"
grep -E "FAIL|passed|failed" $OUT/gspmm.log | cut -c1-200 | tail -6
for prec in fp32 fp16; do
	for b in .gpu/dlbtune_old ./dlbtune; do
		n=$(basename $b)
		timeout -s INT -k 5 80 $b --op spmm --prec $prec --suite docs/results/sparse/n2n4_rows.csv --db /tmp/dbn_$n$prec \
			--csv >$X/n_$n$prec.csv 2>/dev/null
		echo "== N = 2, 4 rows, $prec, $n: exit $?"
		python3 docs/results/sparse/table.py $X/n_$n$prec.csv | grep -E "^\| [0-9]|geomean" | cut -d'|' -f2-6,11
	done
done
m=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,\
lts__t_bytes.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,\
lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,\
smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
i=0
for job in "4:KIND=4 TPR=8 VN=4 WARPS=1 RPW=1 BK=32 MINB=1 NZV=4" "1:KIND=4 TPR=8 VN=1 WARPS=8 RPW=1 BK=32 MINB=1 NZV=4"; do
	i=$((i + 1))
	nn=${job%%:*} cfg=${job#*:}
	timeout -k 5 100 ncu --target-processes all -k regex:'^spmm$' -c 1 --metrics $m \
		./dlbtune --op spmm --m 10752 --n $nn --k 3584 --sparsity 0.9 --only "$cfg" --db /tmp/ncu$i.db >$X/ncu$i.txt 2>&1
	echo "== ncu 10752x${nn}x3584 at 0.9, $cfg: exit $?"
	grep -E "^ +[a-z_0-9]+__" $X/ncu$i.txt | awk '{print "  ", $1, $(NF-1), $NF}'
	timeout -k 5 100 ncu --target-processes all -k regex:'^spmm$' -c 1 --section SourceCounters --page source \
		--print-source sass --csv ./dlbtune --op spmm --m 10752 --n $nn --k 3584 --sparsity 0.9 --only "$cfg" \
		--db /tmp/src$i.db >$X/src$i.csv 2>$X/src$i.err
	echo "== source page: exit $?"
	python3 docs/results/gemm_fp32/ncu_source.py $X/src$i.csv
done
tar czf $OUT/aux.tgz -C $OUT x && rm -rf $X
