#!/bin/bash
# Device call 24 (no GPU work: the 16 cores compile): after the fix of the ptxas-report parser (src/jit.c read 0 spills from
# every NVRTC log), which candidates of each space really spill.
. .gpu/env.sh
export DLBTUNE_DB=/tmp/scan
s=$(date +%s)
for prec in fp16 fp32 int8; do
	./dlbtune compile --op conv --prec $prec --arch sm_90a -v > $OUT/conv_$prec.log 2>&1
	echo "conv $prec: $(tail -1 $OUT/conv_$prec.log) spilling: $(grep -cE '[1-9][0-9]* B spill st|/[1-9][0-9]* B ld' $OUT/conv_$prec.log) ($(( $(date +%s) - s )) s)"
done
for prec in fp32 fp16 int8; do
	timeout 200 ./dlbtune compile --op gemm --prec $prec --arch sm_90a -v > $OUT/gemm_$prec.log 2>&1
	echo "gemm $prec: $(tail -1 $OUT/gemm_$prec.log) spilling: $(grep -cE '[1-9][0-9]* B spill st|/[1-9][0-9]* B ld' $OUT/gemm_$prec.log) ($(( $(date +%s) - s )) s)"
done
gzip $OUT/*.log
