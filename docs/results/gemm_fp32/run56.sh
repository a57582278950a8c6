#!/bin/bash
# Device call 56 for fp32 GEMM (issue 30), 2026-12-01 (a ninth session): the FFMA tile kernel with its leading
# dimensions compiled in (an experiment: .gpu/ldc/dlbtune is HEAD + an env var DLB_XDEF whose text kernels.c
# appends to every candidate's defines, and gemm_fp32.cu's gemm_body taking lda and ldb from LDA_C and LDB_C when
# they are defined; logs/run56/ldc.diff). Without DLB_XDEF the build compiles HEAD's kernels.
# Why: run52's source page put 27% of the FFMA tile's stall samples in the block between k-tiles, where ptxas
# rebuilds each vector's 64-bit address from the leading dimension every tile. With lda and ldb constants the
# fast path's copy is 2 ISETP and 8 predicated LDG.128 with immediate offsets instead of about 50 instructions
# (sm_90a SASS of BM 64 BN 64 BK 16 TM 8 TN 8 TN, 8448x24000x2816).
# Prediction: 2-5% less time on the large rows (the copy block's "wait" stalls gone), the rows' winners' configs.
# OUT=dir bash docs/results/gemm_fp32/run56.sh
. .gpu/env.sh
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
B=.gpu/ldc/dlbtune
t0=$(date +%s)
# m n k ta tb lda ldb config
rows="8448 24000 2816 T N 2816 2816 BM=64_BN=64_BK=16_TM=8_TN=8_KIND=0
2048 7000 2048 N N 2048 2048 BM=128_BN=64_BK=16_TM=8_TN=8_KIND=0
4096 7133 4096 N T 4096 7133 BM=128_BN=64_BK=16_TM=8_TN=8_KIND=0
7680 5481 2560 N T 7680 5481 BM=128_BN=64_BK=16_TM=8_TN=8_KIND=0
1760 7000 1760 N N 1760 1760 BM=128_BN=64_BK=16_TM=8_TN=8_KIND=0"
for pass in 1 2; do
echo "$rows" | while read m n k ta tb la lb cfg; do
	c="${cfg//_/ } KS=1 KU=4 L2PF=0 WGS=1 STAGES=3 ASPLIT=0"
	for v in hd ldc; do
		x=; [ $v = ldc ] && x=$'#define LDA_C '$la$'\n#define LDB_C '$lb
		DLB_XDEF="$x" timeout 120 $B --op gemm --prec fp32 --m $m --n $n --k $k --ta $ta --tb $tb --only "$c" \
			--strategy exhaustive --paired 0 -v --db /tmp/db56_${v}_$pass --csv >$OUT/${v}_${m}_$pass.csv 2>$OUT/${v}_${m}_$pass.err
		echo "== $v $m x $n x $k $ta$tb pass $pass: exit $? at $(( $(date +%s) - t0 )) s: $(python3 -c "
import csv,sys
for r in csv.DictReader(open('$OUT/${v}_${m}_$pass.csv')): print(r['best_config'].split(' KS')[0], r.get('padded','')[:0], 'SPLITK', r['best_config'].split('SPLITK=')[-1], r['tuned_us'], 'us', r['verified'], 'vendor', r['vendor_best_config'][:40], r['speedup'])" 2>&1)"
		grep -h "compiled\|wrong" $OUT/${v}_${m}_$pass.err | tail -2
	done
done
done
gzip -f $OUT/*.err
