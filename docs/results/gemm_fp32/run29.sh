#!/bin/bash
# Device call 29 for issue 30: Nsight Compute on the FFMA tile after the warp-tiled layout (2990b33), for the
# next step. 5124x9124x2560 NN, run27's winner alone (--only, --retune), then cuBLAS's kernels of the same run
# (the vendor entries, timed after ours): issue slots, occupancy, stall reasons, shared-memory wavefronts and
# bank conflicts, FFMA pipe utilisation. ncu with --clock-control none (the card's clocks as found).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
cfg="BM=128 BN=64 BK=16 TM=8 TN=8 KIND=0"
row="--op gemm --prec fp32 --m 5124 --n 9124 --k 2560"
./dlbtune $row --db /tmp/db --only "$cfg" --paired 0 --power-ms 0 >$OUT/tune.txt 2>$OUT/tune.err
echo "== tune: exit $?"; tail -3 $OUT/tune.err | cut -c1-200
for who in ours cublas; do
	s=$(date +%s)
	if [ $who = ours ]; then k='regex:^gemm_nn$'; c=1; else k='regex:sgemm|gemm_f32|xmma|nvjet|cutlass|sm90'; c=2; fi
	timeout -k 5 120 ncu --clock-control none --target-processes all -k "$k" -c $c --set full --csv --page raw \
		./dlbtune $row --db /tmp/db --only "$cfg" --paired 0 --power-ms 0 --retune >$OUT/ncu_$who.csv 2>$OUT/ncu_$who.err
	echo "== $who: ncu exit $? in $(( $(date +%s) - s )) s"
	python3 - $OUT/ncu_$who.csv <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if len(rows) < 3:
    sys.exit("no kernel profiled")
hdr, data = rows[0], rows[2:]
want = ["Kernel Name", "gpu__time_duration.sum", "launch__registers_per_thread", "launch__block_size",
        "launch__occupancy_limit_registers", "sm__warps_active.avg.pct_of_peak_sustained_active",
        "smsp__issue_active.avg.pct_of_peak_sustained_active", "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
        "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active", "smsp__average_warp_latency_per_inst_issued.ratio",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "smsp__inst_executed.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        "lts__t_sector_hit_rate.pct"]
for d in data:
    print("  ---")
    for w in want:
        if w in hdr:
            print("  %-62s %s" % (w, d[hdr.index(w)]))
    st = [(float(d[i].replace(",", "")), h) for i, h in enumerate(hdr)
          if h.startswith("smsp__average_warps_issue_stalled_") and h.endswith("_per_issue_active.ratio") and d[i] not in ("", "n/a")]
    for v, h in sorted(st, reverse=True)[:8]:
        print("  stall %-56s %.3f" % (h[len("smsp__average_warps_issue_stalled_"):-len("_per_issue_active.ratio")], v))
PY
done
cd $OUT && tar czf run29.tgz ncu_* tune.* && rm -f ncu_* tune.*
