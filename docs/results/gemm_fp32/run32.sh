#!/bin/bash
# (The build it ran: 048d888 with logs/run32/kind3.diff applied; KIND 3 was not kept, see README and NOTES 93.)
# Device call 32 for issue 30: KIND 3, the FFMA tile fed by a ring of STAGES (3, 4) shared-memory stages that
# cp.async fills for each operand stored along M or N (A 'n', B 't'); an operand stored along k still goes through
# registers. (1) GPU 1: every KIND 3 candidate, then every KIND 0 candidate (its main loop moved into a function)
# on gpu_gemm_verify's awkward fp32 shapes, all layouts. (2) GPU 0: on 13 shapes, this build's search over KIND 0
# alone (--only 'KIND=0') against the search over both tile families (--only 'family:FFMA tile'), in turn, fresh
# databases; the kernels compile on the GPU machine as the searches ask for them.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
(
	for kind in 3 0; do
		CUDA_VISIBLE_DEVICES=1 DLB_REQUIRE_GPU=1 DLB_VERIFY_ONLY="KIND=$kind" timeout -k 5 240 \
			./tests/gpu_gemm_verify fp32 >$OUT/verify$kind.log 2>&1
		echo "== gpu_gemm_verify fp32, KIND=$kind (GPU 1): exit $? at $(( $(date +%s) - t0 )) s"
	done
) &
g1=$!
mkdir -p $OUT/ab
shapes="5124x9124x2560:0:0 5124x9124x2560:1:0 2560x7133x2560:0:1 4096x7133x4096:0:1 1760x7133x1760:0:1
7680x128x2560:0:0 4096x128x4096:1:0 2560x64x2560:0:0 35x8457x2560:0:0 1760x128x1760:0:0 2048x64x2048:0:0
512x1500x2048:0:0 1760x128x1760:1:0"
i=0
for s in $shapes; do
	IFS=x: read m n k ta tb <<<"$s"
	[ $((i % 2)) = 0 ] && order="k0 both" || order="both k0"
	i=$((i + 1))
	for b in $order; do
		[ $b = k0 ] && only='KIND=0' || only='family:FFMA tile'
		CUDA_VISIBLE_DEVICES=0 timeout 100 ./dlbtune --op gemm --prec fp32 --m $m --n $n --k $k --ta $ta --tb $tb \
			--only "$only" --min-search 2 --power-ms 0 --db /tmp/db_$b --csv \
			>$OUT/ab/$b.$m.$n.$k.$ta$tb.csv 2>$OUT/ab/$b.$m.$n.$k.$ta$tb.err
		echo "$b $s exit $? at $(( $(date +%s) - t0 )) s"
	done
	python3 - $OUT/ab $m $n $k $ta$tb <<'PY'
import csv, glob, sys
for f in sorted(glob.glob("%s/*.%s.%s.%s.%s.csv" % tuple(sys.argv[1:6]))):
    for r in csv.DictReader(open(f)):
        print("  %-5s %5s %5s %5s %s %-52s ours %9s us %5s%% peak, vendor %9s, paired %s" % (f.split("/")[-1].split(".")[0],
              r["m"], r["n"], r["k"], r["layout"], r["best_config"][:52], r["tuned_us"], r["pct_peak"], r["paired_vendor_us"],
              r["paired_speedup"]))
PY
	[ $(( $(date +%s) - t0 )) -gt 480 ] && { echo "== out of time after $s"; break; }
done
grep -h " wrong" $OUT/ab/*.err | grep -v " 0 wrong" | head -3
wait $g1 # not a bare wait: that waits for tee too
for kind in 3 0; do grep -E "wrong|refereed|self-test|FAIL" $OUT/verify$kind.log | tail -4 | cut -c1-220; done
gzip $OUT/verify*.log
tar czf $OUT/ab.tgz -C $OUT ab && rm -r $OUT/ab
echo "== total $(( $(date +%s) - t0 )) s"
