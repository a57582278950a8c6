#!/bin/bash
# Device call 84 (sparse, issue 29), 2026-11-29. KIND 0 and 4 with VN > 1 (the N = 2 and 4 rows): axpy_row chose its
# path (B's row as vectors, or element by element at the edge) per nonzero, and behind that branch each nonzero's
# row of B was loaded only after the FMAs of the one before: one L2 round trip a nonzero, four a group of NZV 4
# (SASS of KIND 4 TPR 32 VN 4 NZV 4, sm_90a). The change decides the path once a chunk (b_vectors), loads the
# group's four rows of B together (four LDG.128 in flight) and, for NZV 4, the next group's values and columns
# while this group's rows load; the FMAs in the same order (the same bits). The NZV 1 loop takes four nonzeros'
# rows together only where VN > 1 (at VN 1 the compiler already had 16 loads in flight); the NZV 4 loop's new path
# serves VN 1 too (the SpMV rows' NZV 4 winners ran it).
# Builds: .gpu/old/dlbtune (a9b0a73), .gpu/new/dlbtune (a9b0a73 + the conv cluster split + this change).
# Carry .gpu/env.sh, .gpu/lib, .gpu/old, .gpu/new.
# (1) gpu_spmm with the new build (every candidate on the awkward problems, both precisions: 0 wrong);
# (2) the eight N = 2, 4 rows (n2n4_rows.csv), fp16 and fp32, default search, old then new on this machine;
# (3) the fp16 suite whole with the new build.
# Prediction: the N = 2 and 4 rows 15-30% faster (a group's four round trips become about one, but A's stream from
# DRAM stays); the fp16 suite from 1.971x (run59) to 2.03-2.10x; fp32's eight rows 1.98x -> 2.2-2.4x.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
cp .gpu/new/dlbtune ./dlbtune
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
t0=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 240 ./tests/gpu_spmm.sh >$OUT/gspmm.log 2>&1
echo "== gpu_spmm: exit $? at $(( $(date +%s) - t0 )) s"
grep -E "FAIL|passed|failed" $OUT/gspmm.log | cut -c1-160 | tail -6
for prec in fp16 fp32; do
	for b in old new; do
		timeout -s INT -k 5 ${AB_S:-70} .gpu/$b/dlbtune --op spmm --prec $prec --suite docs/results/sparse/n2n4_rows.csv \
			--db /tmp/dbn_$b$prec --csv >$OUT/n_$b$prec.csv 2>/tmp/n_$b$prec.err
		echo "== N = 2, 4 rows, $prec, $b: exit $? at $(( $(date +%s) - t0 )) s"
		python3 docs/results/sparse/table.py $OUT/n_$b$prec.csv | grep -E "^\| [0-9]|geomean" | cut -d'|' -f2-6,11
	done
done
[ -n "${SUITE-x}" ] && {
	timeout -s INT -k 10 ${SUITE_S:-170} ./dlbtune --op spmm --prec fp16 --db /tmp/db_fp16 --csv >$OUT/suite_fp16.csv 2>$OUT/suite_fp16.err
	echo "== sparse suite fp16: exit $? at $(( $(date +%s) - t0 )) s"
	python3 docs/results/sparse/table.py $OUT/suite_fp16.csv | grep -E "geomean|^- "
	gzip -f $OUT/suite_fp16.err
}
cat /tmp/n_*.err | gzip >$OUT/n.err.gz
echo "== total $(( $(date +%s) - t0 )) s"
