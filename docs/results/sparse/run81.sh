#!/bin/bash
# Device call 81 (sparse, issue 29; with a check of issue 30's long --only). run61's ncu: KIND 6 (fp32, 16x16
# blocks) issues on 44% of cycles with 11% of its warp slots filled (206 registers). This build adds MINB 2-4 to
# KIND 6: 8·MINB warps an SM, the registers capped to 128, 80, 64 (56 candidates more a precision, where a fitted
# bound says ptxas will not spill: 0 spill bytes over all of them). (1) KIND 6 alone on gpu_spmm's four BSR
# problems, exhaustive, fp32 and fp16: every candidate verified. (2) block_rows.csv in fp32 with the builds
# before (.gpu/k78/dlbtune, the space without them) and after, default search, fresh databases; fp16 after.
# (3) `--only` with a whole fp32 GEMM configuration of 79 characters: tuned, found again by db show, and a second
# tune answered from the database.
# Prediction: 4x4 and 8x8 rows 5-20% faster (their small tiles fit 16-32 warps an SM); 16x16 unchanged (its
# RPW 16 x VN 4 tile does not fit 128 registers without spilling, so it gets no MINB > 1).
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
awk -F, 'NR == 1 { print; next } $6 ~ /^block:/ { split(substr($6, 7), b, "x") }
	$6 ~ /^block:/ && b[1] == b[2] && b[1] >= 4 && $1 % b[1] == 0 && $3 % b[1] == 0' tests/spmm_awkward.csv >/tmp/bsr.csv
for p in fp32 fp16; do
	timeout -s INT -k 5 90 ./dlbtune --op spmm --prec $p --suite /tmp/bsr.csv --only KIND=6 --strategy exhaustive \
		--fixed-samples 1 --db /tmp/k6_$p --csv -v >/tmp/k6_$p.csv 2>/tmp/k6_$p.err
	echo "== KIND 6 alone $p: exit $? at $(( $(date +%s) - t0 )) s"
	grep " ok, .* wrong, .* faults)" /tmp/k6_$p.err | sed 's/^ *//' | cut -c1-130
	grep -o '"KIND=6[^"]*"' /tmp/k6_$p.csv
done
cat /tmp/k6_fp32.err /tmp/k6_fp16.err | gzip >$OUT/k6verify.err.gz
show() {
python3 - "$1" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("  %sx%sx%s %s %-14s | %-56s %9s us | %-18s %9s us | paired %s" % (r["m"], r["n"], r["k"], r["sparsity"],
          r["layout"], r["best_config"][:56], r["tuned_us"], r["cusparse_algo"], r["cusparse_us"], r["paired_speedup"]))
PY
}
for b in before after; do
	bin=./dlbtune; [ $b = before ] && bin=.gpu/k78/dlbtune
	timeout -s INT -k 5 70 $bin --op spmm --prec fp32 --suite docs/results/sparse/block_rows.csv --db /tmp/blk32_$b \
		--csv >$OUT/blk32_$b.csv 2>/dev/null
	echo "== block rows fp32 ($b): exit $? at $(( $(date +%s) - t0 )) s"
	show $OUT/blk32_$b.csv
done
timeout -s INT -k 5 70 ./dlbtune --op spmm --prec fp16 --suite docs/results/sparse/block_rows.csv --db /tmp/blk16 \
	--csv >$OUT/blk16_after.csv 2>/dev/null
echo "== block rows fp16 (after): exit $? at $(( $(date +%s) - t0 )) s"
show $OUT/blk16_after.csv
cfg="BM=128 BN=128 BK=16 TM=8 TN=16 KIND=0 KS=1 KU=4 L2PF=0 WGS=1 STAGES=3 ASPLIT=0"
{
	for i in 1 2; do
		timeout -k 5 60 ./dlbtune --op gemm --prec fp32 --m 2048 --n 2048 --k 2048 --only "$cfg" --db /tmp/dbonly --csv -v \
			>/tmp/only$i.csv 2>/tmp/only$i.err
		echo "== tune $i with --only (${#cfg} characters): exit $?"
		python3 -c "import csv,sys; [print('  ', r['best_config'], r['tuned_us'], 'cached', r['cached']) for r in csv.DictReader(open('/tmp/only$i.csv'))]"
		tail -3 /tmp/only$i.err
	done
	./dlbtune db show --op gemm --prec fp32 --m 2048 --n 2048 --k 2048 --only "$cfg" --db /tmp/dbonly 2>&1 | head -12
	echo "== db show: exit $?"
} >$OUT/only.txt 2>&1
cat $OUT/only.txt | grep -E "^==|cached"
