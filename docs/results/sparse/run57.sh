#!/bin/bash
# Device call 57 (sparse, issue 29), prepared 2026-11-28 without device time. The N = 2 and 4 rows are the
# suite's largest lever now: they read about the same bytes as N = 1 (A's CSR dominates: B is 28-57 KB, C 84-172
# KB) yet run 1.3-1.9x above the harness's stream floor (run53, fp32: 10752x4x3584 at 90% 27.3 us against a floor
# of 14.3, where N = 1 runs 16.4), while N = 1 runs within 1.1-1.2x of it. Brought to 1.2x of the floor, the eight
# N = 2, 4 rows would lift the fp32 suite from 1.57x to about 1.70x and fp16's from 1.88x to about 2.07x.
# ncu on run53's winners of 10752x4x3584 and 10752x1x3584 at 90% (fp32): where the time goes (DRAM, L1/L2
# wavefronts of the B gathers, the warp reductions, occupancy), counters and the source page.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
m=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,\
lts__t_bytes.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,\
lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,\
smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
i=0
for job in "4:KIND=4 TPR=8 VN=4 WARPS=1 RPW=1 BK=32 MINB=1 NZV=4" "1:KIND=4 TPR=8 VN=1 WARPS=8 RPW=1 BK=32 MINB=1 NZV=4"; do
	i=$((i + 1))
	n=${job%%:*} cfg=${job#*:}
	timeout -k 5 100 ncu --target-processes all -k regex:'^spmm$' -c 1 --metrics $m \
		./dlbtune --op spmm --m 10752 --n $n --k 3584 --sparsity 0.9 --only "$cfg" --db /tmp/ncu$i.db >$OUT/ncu$i.txt 2>&1
	echo "== ncu 10752x${n}x3584 at 0.9, $cfg: exit $?"
	grep -E "^ +[a-z_0-9]+__" $OUT/ncu$i.txt | awk '{print "  ", $1, $(NF-1), $NF}'
	timeout -k 5 100 ncu --target-processes all -k regex:'^spmm$' -c 1 --section SourceCounters --page source \
		--print-source sass --csv ./dlbtune --op spmm --m 10752 --n $n --k 3584 --sparsity 0.9 --only "$cfg" \
		--db /tmp/src$i.db >$OUT/src$i.csv 2>$OUT/src$i.err
	echo "== source page: exit $?"
	python3 docs/results/gemm_fp32/ncu_source.py $OUT/src$i.csv
done
