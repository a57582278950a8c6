#!/bin/bash
# Device call 36 (review of the session's change): shared pieces instead of copies — reference and conversion
# kernels launched through dlb_grid_for (verify.c's grid, now in device.c; conv's and spmm's own copies gone),
# the vendor entries' brief reason through dlb_last_error_brief (conv's vendor_why, now in err.c, which spmm's
# cuSPARSE entries use too), cuSPARSE's unsupported algorithms through the one failure path. The GPU tests that
# run those paths: gpu_spmm, gpu_conv fp32 and int8 (its NCHW rows' n/a reason), gpu_faults, gpu_tune_cache.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for t in gpu_spmm.sh:150 gpu_faults:150 gpu_tune_cache.sh:100; do
	s=$(date +%s)
	DLB_REQUIRE_GPU=1 timeout -k 5 ${t#*:} ./tests/${t%%:*} >$OUT/${t%%:*}.log 2>&1
	echo "== ${t%%:*}: exit $? in $(( $(date +%s) - s )) s"
	grep -E "FAIL|passed|failed|checks" $OUT/${t%%:*}.log | tail -2 | cut -c1-160
done
for p in fp32:90 int8:250; do
	s=$(date +%s)
	GPU_CONV_PRECS=${p%%:*} DLB_REQUIRE_GPU=1 timeout -k 5 ${p#*:} ./tests/gpu_conv.sh >$OUT/gconv_${p%%:*}.log 2>&1
	echo "== gpu_conv ${p%%:*}: exit $? in $(( $(date +%s) - s )) s"
	grep -E "FAIL|passed|failed" $OUT/gconv_${p%%:*}.log | tail -2
done
