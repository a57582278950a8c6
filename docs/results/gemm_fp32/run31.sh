#!/bin/bash
# Device call 31 for issue 30. run30's searches never picked a 64x64 warp tile (TN 16) or a 256-row block. (1)
# GPU 0: each of them alone on 5124x9124x2560 NN (--only the configuration in full), beside run30's winner
# (128x64 BK 16, 8x8 a thread), to see whether the search missed them or they are slower; then Nsight Compute on
# 256x128 BK 8 TM 8 TN 16 (cuBLAS's shape; run29's metrics); then the even rows of the 33 gemm_training rows
# run30 did not reach (training_rest30.csv), --fp32-math ffma. (2) GPU 1: the odd rows of those. Fresh result
# databases; kernel cache from the development machine (.gpu/kc.tgz: kcnew).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
tar xzf .gpu/kc.tgz -C /tmp kcnew && for d in dbr0 dbr1 dbc; do cp -r /tmp/kcnew /tmp/$d; done
rest=docs/results/gemm_fp32/training_rest30.csv
awk 'NR == 1 || NR % 2 == 0' $rest > /tmp/r0.csv
awk 'NR == 1 || NR % 2 == 1' $rest > /tmp/r1.csv
end=330
CUDA_VISIBLE_DEVICES=1 timeout -s INT -k 10 $end ./dlbtune --op gemm --prec fp32 --suite /tmp/r1.csv --db /tmp/dbr1 \
	--min-search 2 --fp32-math ffma --csv >$OUT/r1.csv 2>$OUT/r1.err &
g1=$!
mkdir -p $OUT/cfg
row="--op gemm --prec fp32 --m 5124 --n 9124 --k 2560"
for c in "BM=128 BN=64 BK=16 TM=8 TN=8" "BM=256 BN=128 BK=8 TM=8 TN=16" "BM=128 BN=128 BK=8 TM=8 TN=16" \
	"BM=128 BN=128 BK=16 TM=8 TN=16" "BM=256 BN=64 BK=8 TM=8 TN=16" "BM=256 BN=64 BK=16 TM=8 TN=16" \
	"BM=128 BN=64 BK=8 TM=8 TN=16" "BM=64 BN=128 BK=8 TM=8 TN=16" "BM=256 BN=64 BK=8 TM=8 TN=8" \
	"BM=256 BN=64 BK=16 TM=8 TN=8" "BM=256 BN=32 BK=8 TM=8 TN=8"; do
	f=$OUT/cfg/$(echo "$c" | tr ' =' '_-')
	CUDA_VISIBLE_DEVICES=0 timeout 60 ./dlbtune $row --only "$c KIND=0" --power-ms 0 --db /tmp/dbc --csv >$f.csv 2>$f.err
	python3 - "$f.csv" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("  %-44s ours %9s us %6s%% peak, paired vendor %9s us, paired %s" % (r["best_config"][:44], r["tuned_us"],
          r["pct_peak"], r["paired_vendor_us"], r["paired_speedup"]))
PY
done
cfg="BM=256 BN=128 BK=8 TM=8 TN=16 KIND=0"
s=$(date +%s)
CUDA_VISIBLE_DEVICES=0 timeout -k 5 90 ncu --clock-control none --target-processes all -k 'regex:^gemm_nn$' -c 1 --set full \
	--csv --page raw ./dlbtune $row --db /tmp/dbc --only "$cfg" --paired 0 --power-ms 0 --retune >$OUT/ncu.csv 2>$OUT/ncu.err
echo "== ncu $cfg: exit $? in $(( $(date +%s) - s )) s"
python3 - $OUT/ncu.csv <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if len(rows) < 3:
    sys.exit("no kernel profiled")
hdr, data = rows[0], rows[2:]
want = ["gpu__time_duration.sum", "launch__registers_per_thread", "launch__block_size",
        "sm__warps_active.avg.pct_of_peak_sustained_active", "smsp__issue_active.avg.pct_of_peak_sustained_active",
        "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", "smsp__average_warp_latency_per_inst_issued.ratio",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "smsp__inst_executed.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed", "lts__t_sector_hit_rate.pct"]
for d in data:
    for w in want:
        if w in hdr:
            print("  %-62s %s" % (w, d[hdr.index(w)]))
    st = [(float(d[i].replace(",", "")), h) for i, h in enumerate(hdr)
          if h.startswith("smsp__average_warps_issue_stalled_") and h.endswith("_per_issue_active.ratio") and d[i] not in ("", "n/a")]
    for v, h in sorted(st, reverse=True)[:8]:
        print("  stall %-56s %.3f" % (h[len("smsp__average_warps_issue_stalled_"):-len("_per_issue_active.ratio")], v))
PY
CUDA_VISIBLE_DEVICES=0 timeout -s INT -k 10 $(( end - ($(date +%s) - t0) )) ./dlbtune --op gemm --prec fp32 \
	--suite /tmp/r0.csv --db /tmp/dbr0 --min-search 2 --fp32-math ffma --csv >$OUT/r0.csv 2>$OUT/r0.err
echo "== rest, even rows (GPU 0): exit $? at $(( $(date +%s) - t0 )) s"
wait $g1 # not a bare wait: that waits for tee too
echo "== rest, odd rows (GPU 1): exit $? at $(( $(date +%s) - t0 )) s"
python3 docs/results/gemm_fp32/summary.py $OUT/r0.csv $OUT/r1.csv
echo "== training, all rows of run30 and run31"
python3 docs/results/gemm_fp32/summary.py docs/results/gemm_fp32/logs/run30/tr0.csv docs/results/gemm_fp32/logs/run30/tr1.csv $OUT/r0.csv $OUT/r1.csv
tar czf $OUT/cfg.tgz -C $OUT cfg ncu.csv ncu.err && rm -r $OUT/cfg $OUT/ncu.*
tar czf $OUT/errs.tgz -C $OUT r0.err r1.err && rm $OUT/*.err
echo "== total $(( $(date +%s) - t0 )) s"
