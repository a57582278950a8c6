#!/bin/bash
# Device call 35 for issue 30, prepared 2026-11-28 without device time. Needs an H100 kind (Firecracker: ncu
# reads the counters there, not on the gVisor H200s; KINDS.md) and .gpu/dlbtune_k3, built from this commit with
# next_kind3_cpasync_all.diff applied (git worktree add /tmp/k3 HEAD; git -C /tmp/k3 apply ...; build there;
# cp /tmp/k3/dlbtune .gpu/dlbtune_k3; cp /tmp/k3/tests/gpu_gemm_verify .gpu/dlbtune_k3_verify). Three questions:
# 1) Is KIND 3 with every operand copied by cp.async (the one stored along k by 4-byte copies, as cuBLAS does)
#    correct? gpu_gemm_verify on every KIND 3 candidate.
# 2) Does it reach cuBLAS's efficiency at cuBLAS's own tile? Each configuration alone on 5124x9124x2560 NN and
#    4096x7133x4096 NT against KIND 0's best (128x64 BK16 8x8). Prediction: 256x128 BK8 8x16, 3 stages, at
#    66-70% of peak on NN (cuBLAS 69.5%), NT unchanged at 62% (its operands were already copied in run32).
# 3) Why NT stops at 62% where cuBLAS reaches 80%: ncu on one launch of ours and one of cuBLAS's best on the
#    NT shape: issue-slot use, FFMA share, stall reasons, shared-memory bank conflicts, L2 and DRAM throughput.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY="KIND=3" timeout -k 5 150 ./.gpu/dlbtune_k3_verify fp32 >$OUT/verify3.log 2>&1
echo "== gpu_gemm_verify fp32 KIND=3: exit $? at $(( $(date +%s) - t0 )) s"
tail -3 $OUT/verify3.log
mkdir -p $OUT/cfg
for shape in "5124 9124 2560 0 0" "4096 7133 4096 0 1"; do
	read m n k ta tb <<<"$shape"
	echo "== ${m}x${n}x${k} ta $ta tb $tb"
	for c in "dlbtune:BM=128 BN=64 BK=16 TM=8 TN=8 KIND=0" \
		".gpu/dlbtune_k3:6 BN=128 BK=8 TM=8 TN=16 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=3" \
		".gpu/dlbtune_k3:6 BN=128 BK=8 TM=8 TN=16 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=4" \
		".gpu/dlbtune_k3:8 BN=128 BK=8 TM=8 TN=16 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=3" \
		".gpu/dlbtune_k3:8 BN=64 BK=16 TM=8 TN=8 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=3"; do
		b=${c%%:*} cfg=${c#*:}
		f=$OUT/cfg/$m.$(echo "$cfg" | cut -c1-60 | tr ' =' '_-')
		timeout 40 ./$b --op gemm --prec fp32 --m $m --n $n --k $k --ta $ta --tb $tb --only "$cfg" --power-ms 0 \
			--db /tmp/db_$(basename $b) --csv >$f.csv 2>$f.err
		rc=$?
		python3 - "$f.csv" "$rc" <<'PY'
import csv, sys
n = 0
for r in csv.DictReader(open(sys.argv[1])):
    n += 1
    print("  %-62s ours %9s us %6s%% peak, paired vendor %9s us (%s), paired %s" % (r["best_config"][:62],
          r["tuned_us"], r["pct_peak"], r["paired_vendor_us"], r["vendor_best"], r["paired_speedup"]))
if not n:
    print("  (no row; exit %s)" % sys.argv[2])
PY
	done
done
# ncu: one launch each of our NT kernel (gemm_nt) and of cuBLAS's (its sm80_xmma/sm90 kernel), on the NT shape
metrics=sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed_pipe_fma.sum,smsp__inst_executed.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,\
smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,\
sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,dram__throughput.avg.pct_of_peak_sustained_elapsed
for who in ours:gemm_nt cublas:'xmma|sgemm|cutlass'; do
	name=${who%%:*} re=${who#*:}
	timeout -k 5 110 ncu --clock-control none --target-processes all -k regex:"$re" --launch-skip 2 --launch-count 1 \
		--metrics "$metrics" --csv ./dlbtune --op gemm --prec fp32 --m 4096 --n 7133 --k 4096 --ta 0 --tb 1 \
		--only "BM=128 BN=64 BK=16 TM=8 TN=8 KIND=0" --power-ms 0 --fixed-samples 2 --db /tmp/db_ncu_$name \
		>$OUT/ncu_$name.csv 2>$OUT/ncu_$name.err
	echo "== ncu $name: exit $? at $(( $(date +%s) - t0 )) s"
done
python3 - $OUT/ncu_ours.csv $OUT/ncu_cublas.csv <<'PY'
import csv, sys
for f in sys.argv[1:]:
    rows = [r for r in csv.reader(open(f)) if len(r) > 10]
    if not rows:
        print("  %s: no ncu rows" % f)
        continue
    for r in rows[1:]:
        d = dict(zip(rows[0], r))
        print("  %-40s %-70s %s" % (d.get("Kernel Name", "")[:40], d.get("Metric Name", ""), d.get("Metric Value", "")))
PY
tar czf $OUT/cfg.tgz -C $OUT cfg && rm -r $OUT/cfg
echo "== total $(( $(date +%s) - t0 )) s"
