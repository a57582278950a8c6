#!/bin/bash
# Device calls 112 for convolution (issue 28), prepared 2026-11-30 (a later session). PART=1 and PART=2 run
# 2026-11-30 on one H200 (logs/run112; docs/NOTES.md item 175): MC verified (0 wrong) but 7-9% slower than MC 1 on
# 64x64, STAGES 12 4% slower than 8; neither landed, PART=3 not run; first_tile landed alone (run113.sh). PART=1's
# gpu_conv was cut at its 250 s while compiling cold (its file is empty).
# next_conv_mc.diff: fp16 KIND 2 with MC 2 or 4 (docs/NOTES.md item 172): a cluster of MC blocks on one pixel
# tile's MC filter tiles, each block's copy engine fetching BM/MC of the tile's pixels and multicasting them to
# the cluster, so L2 serves x once a cluster; one tile a block, no split (offered where the tiles fit the SMs).
# Why: run109 PART=1 (ncu) found cuDNN's fastest kernel on the batch-1 3x3 rows a 64x64x64 wgmma tile, one wave
# of 104-108 blocks in clusters of 4, no split, 14 stages; ours with that tile and grid (no multicast) 13.25 us
# against its 10.56 (under ncu) and our best (128x128, a 4-way cluster split) 11.1 us in the harness.
# The diff also offers STAGES 12 to the wgmma kernels with BM 64 and BN <= 64 (cuDNN's kernel holds about 14
# stages of 16 KB; ours stopped at 8): 8 candidates, 192 KB of ring for 64x64.
# Static: the 116 MC candidates compile for sm_90a in every specialisation (348 kernels on mc_rows.csv); SASS
# UTMALDG.4D.IM2COL.MULTICAST, remote arrivals (SYNCS.ARRIVE.TRANS64.RED), 108 registers for 64x64 MC 4 (102
# without), no local memory.
# The diff also reads each wgmma block's first tile after its setmaxnreg (first_tile): ptxas had spilled it across
# the reallocation in 128x256 WARPS_M 2's NCHW8 kernels on HEAD (24 bytes; NOTES item 173), which conv_cli's
# sample, shifted by the larger space, takes. PART=3's A/B includes that change for every wgmma kernel.
# Build here:
#   make -j2 && mkdir -p .gpu/cbase && cp dlbtune .gpu/cbase/                      (the landed build)
#   git apply docs/results/conv/next_conv_mc.diff && make -j2                       (./dlbtune: MC)
#   ../shared/gpu/bundle .gpu ./dlbtune
# Carry dlbtune and .gpu.
# PART=1: every MC candidate (`--only 'MC=2|MC=4'`, exhaustive, one sample) on mc_rows.csv: the two 3x3 rows,
#   7x7 1x1 (the tiled map of x), 13x11 with dilation 2 and unequal pads, NCHW with stride 2 and 2 images, 1x1
#   on 3 images (459 pixels, edge slices past the last pixel), 5x5 NCHW. Prediction: 0 wrong, 0 faults, no hang.
#   Then gpu_conv fp16 (the awkward rows, every candidate with MC among them). About 300 s.
# PART=2: KIND 2 alone (`--only KIND=2`, exhaustive) on the two 3x3 rows: the best MC point against the best
#   without, and STAGES 12 against 8. Prediction: 64x64 MC 4 STAGES 8 about 11 us (13.25 without), within 5% of
#   the 4-way cluster split (11.1); the split stays the best or ties; STAGES 12 within 3% of 8. About 540 s (174 kernels compiled cold).
# PART=3: A/B, worst_batch1.csv and run107's batch-1 rows' first third, default search, fresh databases, the
#   builds in turn. Prediction: within 2% on most rows; 3-8% faster on 3x3 rows with C·R·S >= 2304.
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
d=docs/results/conv
t0=$(date +%s)
case "${PART:-1}" in
1)
	timeout -s INT -k 10 300 ./dlbtune --op conv --prec fp16 --suite $d/mc_rows.csv --only 'MC=2|MC=4' --strategy exhaustive \
		--fixed-samples 1 --db /tmp/dbmc -v --csv >$OUT/mc_verify.csv 2>$OUT/mc_verify.err
	echo "== MC candidates on mc_rows.csv: exit $? at $(( $(date +%s) - t0 )) s"
	grep -h "candidates, .* samples" $OUT/mc_verify.err | sed 's/.*stopped: //' | cut -c1-160
	grep -hE "wrong|fault|hang|timed out" $OUT/mc_verify.err | grep -v " 0 wrong, 0 faults" | cut -c1-200 | head -8
	DLB_REQUIRE_GPU=1 GPU_CONV_PRECS=fp16 timeout 250 sh tests/gpu_conv.sh >$OUT/gpu_conv_fp16.txt 2>&1
	echo "== gpu_conv fp16: exit $? at $(( $(date +%s) - t0 )) s"; tail -3 $OUT/gpu_conv_fp16.txt
	gzip -f $OUT/*.err
	;;
2)
	for job in "28|300|--w 28 --h 28 --c 256 --k 512" "84|240|--w 84 --h 20 --c 256 --k 256"; do
		IFS='|' read -r name lim layer <<<"$job" # the first row compiles KIND 2's 174 kernels cold
		timeout -s INT -k 10 $lim ./dlbtune --op conv --prec fp16 --layout NHWC $layer --n 1 --s 3 --r 3 --pad-w 1 --pad-h 1 \
			--only 'KIND=2' --strategy exhaustive --db /tmp/dbk2_$name -v --csv >$OUT/k2_$name.csv 2>$OUT/k2_$name.err
		echo "== $name KIND 2 exhaustive: exit $? at $(( $(date +%s) - t0 )) s"
		./dlbtune db show --db /tmp/dbk2_$name --op conv --prec fp16 --layout NHWC $layer --n 1 --s 3 --r 3 --pad-w 1 \
			--pad-h 1 --only 'KIND=2' >$OUT/k2_$name.show 2>&1
		python3 - $OUT/k2_$name.show <<'PY'
import re, sys
best = {}
for line in open(sys.argv[1]):
    m = re.search(r"(BM=\S+ BN=\S+ BK=\S+ WARPS_M=\S+ WARPS_N=\S+ STAGES=\S+ KIND=2 MC=(\d))(?: SPLITK=(-?\d+))? ok +n=\d+ +(\d+\.\d+) us", line)
    if m:
        mc, us = m.group(2), float(m.group(4))
        if mc not in best or us < best[mc][0]:
            best[mc] = (us, m.group(1) + " SPLITK=" + (m.group(3) or "1"))
for mc in sorted(best):
    print("  MC=%s best %.3f us  %s" % (mc, best[mc][0], best[mc][1]))
st = {}
for line in open(sys.argv[1]):
    m = re.search(r"BM=64 BN=64 BK=64 WARPS_M=1 WARPS_N=1 STAGES=(\d+) KIND=2 MC=(\d)(?: SPLITK=(-?\d+))? ok +n=\d+ +(\d+\.\d+) us", line)
    if m and (m.group(3) or "1") == "1":
        st[(int(m.group(2)), int(m.group(1)))] = float(m.group(4))
print("  64x64 without a split, us by (MC, STAGES):", " ".join("%d,%d: %.2f" % (k + (v,)) for k, v in sorted(st.items())))
PY
	done
	gzip -f $OUT/*.err $OUT/*.show
	;;
3)
	(head -n 1 $d/batch1_speech_inference.csv; sed -n "2,24p" $d/batch1_speech_inference.csv) >/tmp/b1.csv
	for b in base mc; do
		bin=./dlbtune; [ $b = base ] && bin=.gpu/cbase/dlbtune
		for s in worst_batch1:$d/worst_batch1.csv b1:/tmp/b1.csv; do
			timeout -s INT -k 10 200 $bin --op conv --prec fp16 --layout NHWC --suite ${s#*:} --db /tmp/db3_${b}_${s%%:*} \
				--csv >$OUT/${s%%:*}_$b.csv 2>/tmp/${s%%:*}_$b.err
			echo "== ${s%%:*} $b: exit $? at $(( $(date +%s) - t0 )) s"
		done
	done
	python3 - $OUT <<'PY'
import csv, math, sys
out = sys.argv[1]
key = lambda r: tuple(r[c] for c in ("w", "h", "c", "n", "k", "s", "r", "stride-w", "pad-w"))
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
for name in ("worst_batch1", "b1"):
    a = {key(r): r for r in csv.DictReader(open("%s/%s_base.csv" % (out, name)))}
    b = [r for r in csv.DictReader(open("%s/%s_mc.csv" % (out, name))) if key(r) in a]
    print("  %s: %d rows, mc / base time %.3f, paired %.3f -> %.3f, %d won by MC > 1" % (name, len(b),
          g([float(r["tuned_us"]) / float(a[key(r)]["tuned_us"]) for r in b]),
          g([float(a[key(r)]["paired_speedup"]) for r in b]), g([float(r["paired_speedup"]) for r in b]),
          sum(" MC=1" not in r["best_config"] for r in b)))
    for r in b:
        if " MC=1" not in r["best_config"] or abs(float(r["tuned_us"]) / float(a[key(r)]["tuned_us"]) - 1) > 0.03:
            print("    %sx%s c%s k%s %sx%s: %s -> %s us  %s" % (r["w"], r["h"], r["c"], r["k"], r["s"], r["r"],
                  a[key(r)]["tuned_us"], r["tuned_us"], r["best_config"]))
PY
	cat /tmp/*_base.err /tmp/*_mc.err | gzip >$OUT/ab.err.gz
	;;
esac
