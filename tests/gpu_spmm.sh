#!/bin/sh
# gpu_spmm: every sparse candidate verified on awkward problems (tests/spmm_awkward.csv: SpMV on odd sizes,
# N = 3 with most rows empty (K = 50 at 99%), N = 37 with 4x4 blocks clipped at the edges, N = 1500 and 1501,
# rows of 1200 nonzeros, a dense A, N = 16 with 32x32 blocks, two skewed matrices whose row 0 holds a tenth of
# the nonzeros, with N = 64 and 1, N = 4 with K = 65536, the 16-bit columns' limit, N = 2 with an odd count of
# nonzeros, so that the 32-bit columns follow the values unaligned but for the padding, N = 24 with 4x4 blocks that
# tile M and K, where cuSPARSE's BSR and Blocked-ELL algorithms join the baselines and KIND 6 reads the BSR copy,
# and three more such problems: 8x8 blocks with N = 150, 16x16 with N = 66 (neither a multiple of 4), 32x32 with
# N = 40; KIND 6 is also searched alone on the four, and in fp16 KIND 7, the tensor cores on the BSR blocks, on
# the 8x8, 16x16 and 32x32 ones): the exhaustive strategy verifies every
# candidate before its one timing sample. 0 wrong, 0 faults, every row verified, and every row with a
# verified cuSPARSE time and a dense cuBLAS time; each problem's matrix statistics shown under its progress
# line (the skewed SpMV's longest row its tenth; KIND 3's segmented copies where N >= 64, KIND 4's 16-bit
# columns where N <= 16); and a matrix read from a Matrix Market file (--matrix),
# verified with values up to 99.5. The awkward suite runs in fp32 and in fp16 (where KIND 5, the tensor cores on A
# made dense a slice at a time, joins on the seven problems with N >= 8). Exit 77 without a GPU.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
bin="$top_builddir/dlbtune"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "${top_srcdir:-.}/tests/lib.sh"
require_gpu gpu_spmm
fail=0
rows=$(($(wc -l <"$top_srcdir/tests/spmm_awkward.csv") - 1))
for prec in fp32 fp16; do
	echo "== $prec"
	"$bin" --op spmm --prec $prec --suite "$top_srcdir/tests/spmm_awkward.csv" --strategy exhaustive --fixed-samples 1 \
		--db "$tmp/db" --csv -v >"$tmp/out.csv" 2>"$tmp/err"
	rc=$?
	[ $rc = 0 ] || { echo "FAIL: $prec: dlbtune exited $rc"; tail -20 "$tmp/err"; fail=1; }
	lines=$(grep -c " ok, .* wrong, .* faults)" "$tmp/err")
	bad=$(grep " ok, .* wrong, .* faults)" "$tmp/err" | grep -vc " ok, 0 wrong, 0 faults)")
	[ "$lines" = "$rows" ] && [ "$bad" = 0 ] || { echo "FAIL: $prec: $lines of $rows problems searched, $bad with wrong answers or faults:";
		grep " ok, .* wrong, .* faults)" "$tmp/err"; fail=1; }
	notes=$(grep -Ec "^    data: A: [0-9]* nonzeros \(.*\), rows of [0-9]*-[0-9]* \(mean .*\), [0-9]* empty; .* MB as CSR(; KIND 3's segmented copies [0-9.]* MB, built in [0-9]* ms on the host)?(; KIND 4's 16-bit columns [0-9.]* MB, made in [0-9.]* ms on the host)?(; KIND 5's tiled copies [0-9.]* MB, built in [0-9]* ms on the host)?(; cuSPARSE's BSR(/ELL)? [0-9]*x[0-9]* copies [0-9.]* MB, built in [0-9]* ms on the host( \(KIND 6 (reads|and 7 read) the BSR one\))?|; no cuSPARSE BSR/ELL: [^;]*)?$" "$tmp/err")
	[ "$notes" = "$rows" ] || { echo "FAIL: $prec: $notes of $rows problems with the matrix's statistics"; fail=1; }
	# KIND 3 (A segmented) runs where N >= 64: its copies made on the six such problems
	segs=$(grep -c "^    data: .*; KIND 3's segmented copies" "$tmp/err")
	[ "$segs" = 6 ] || { echo "FAIL: $prec: KIND 3's segmented copies made for $segs problems, not the 6 with N >= 64"; fail=1; }
	# KIND 4 (16-bit columns) where N <= 16 and K <= 65536: the seven such problems (one with K = 65536)
	c16=$(grep -c "^    data: .*; KIND 4's 16-bit columns" "$tmp/err")
	[ "$c16" = 7 ] || { echo "FAIL: $prec: KIND 4's 16-bit columns made for $c16 problems, not the 7 with N <= 16"; fail=1; }
	# fp16's KIND 5 (tensor cores, A tiled) where N >= 8: the ten such problems; never in fp32
	t5=$(grep -c "^    data: .*; KIND 5's tiled copies" "$tmp/err")
	want=$([ $prec = fp16 ] && echo 10 || echo 0)
	[ "$t5" = "$want" ] || { echo "FAIL: $prec: KIND 5's tiled copies made for $t5 problems, not $want"; fail=1; }
	# cuSPARSE's block formats where A is square blocks tiling M and K (4x4 on 1024x512, 8x8, 16x16, 32x32): its
	# BSR algorithm verified and timed there, and in fp16 its Blocked-ELL one too (in fp32 that one would be TF32
	# on the tensor cores: not offered), and KIND 6 reading the BSR copy; the other three block problems (4x4 on
	# 1001x999, 1x4, 32x32 on 2000x2000) say why they have none
	bf=$(grep -Ec "^    data: .*; cuSPARSE's $([ $prec = fp16 ] && echo BSR/ELL || echo BSR) [0-9]+x[0-9]+ copies .* \(KIND 6 (reads|and 7 read) the BSR one\)" "$tmp/err")
	nb=$(grep -c "^    data: .*; no cuSPARSE BSR/ELL: " "$tmp/err")
	[ "$bf" = 4 ] && [ "$nb" = 3 ] || { echo "FAIL: $prec: cuSPARSE's block copies on $bf problems (want 4), a reason on $nb (want 3)"; fail=1; }
	"$bin" db show --op spmm --prec $prec --m 1024 --n 24 --k 512 --sparsity 0.9 --pattern block:4x4 --matrix-seed 13 \
		--db "$tmp/db" >"$tmp/show" 2>&1
	ell=$(grep -Ec "cusparse:BLOCKED_ELL_ALG1 +ok" "$tmp/show")
	grep -Eq "cusparse:BSR_ALG1 +ok" "$tmp/show" && [ "$ell" = "$([ $prec = fp16 ] && echo 1 || echo 0)" ] ||
		{ echo "FAIL: $prec: cuSPARSE's BSR (and in fp16 Blocked-ELL) entry not verified on the 4x4 block problem:";
		cat "$tmp/show"; fail=1; }
	grep -E "cusparse:(BSR|BLOCKED)" "$tmp/show" | cut -c1-160
	# KIND 6 (FFMA on the BSR copy) alone on the four problems with a BSR copy: each searched with every KIND 6
	# candidate its block side and N allow, each verified, and the best a KIND 6 one
	awk -F, 'NR == 1 { print; next } $6 ~ /^block:/ { split(substr($6, 7), b, "x") }
		$6 ~ /^block:/ && b[1] == b[2] && b[1] >= 4 && $1 % b[1] == 0 && $3 % b[1] == 0' \
		"$top_srcdir/tests/spmm_awkward.csv" >"$tmp/bsr.csv"
	"$bin" --op spmm --prec $prec --suite "$tmp/bsr.csv" --only KIND=6 --strategy exhaustive --fixed-samples 1 \
		--db "$tmp/db6" --csv -v >"$tmp/bsr_out.csv" 2>"$tmp/bsr_err" || { echo "FAIL: $prec: KIND 6 alone: dlbtune exited $?";
		tail -5 "$tmp/bsr_err"; fail=1; }
	k6=$(sed 's/"KIND=6 [^"]*"/k6/g; s/"[^"]*"/x/g' "$tmp/bsr_out.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["best_config"] == "k6" && $c["verified"] == 1 {n++} END {print n + 0}')
	ok6=$(grep -c " ok, 0 wrong, 0 faults)" "$tmp/bsr_err")
	[ "$k6" = 4 ] && [ "$ok6" = 4 ] || { echo "FAIL: $prec: KIND 6 verified best on $k6 of 4 BSR problems, $ok6 searched clean:";
		grep " ok, .* wrong, .* faults)" "$tmp/bsr_err"; cat "$tmp/bsr_out.csv"; fail=1; }
	grep " ok, .* wrong, .* faults)" "$tmp/bsr_err" | sed 's/^ *//; s/^/KIND 6: /' | cut -c1-120
	if [ $prec = fp16 ]; then # KIND 7 (tensor cores on the BSR copy) alone on the 8x8, 16x16 and 32x32 problems
		awk -F, 'NR == 1 || $6 != "block:4x4"' "$tmp/bsr.csv" >"$tmp/bsr7.csv"
		"$bin" --op spmm --prec fp16 --suite "$tmp/bsr7.csv" --only KIND=7 --strategy exhaustive --fixed-samples 1 \
			--db "$tmp/db7" --csv -v >"$tmp/bsr7_out.csv" 2>"$tmp/bsr7_err" ||
			{ echo "FAIL: KIND 7 alone: dlbtune exited $?"; tail -5 "$tmp/bsr7_err"; fail=1; }
		k7=$(sed 's/"KIND=7 [^"]*"/k7/g; s/"[^"]*"/x/g' "$tmp/bsr7_out.csv" | awk -F, 'NR == 1 {
			for (i = 1; i <= NF; i++) c[$i] = i; next } $c["best_config"] == "k7" && $c["verified"] == 1 {n++}
			END {print n + 0}')
		ok7=$(grep -c " ok, 0 wrong, 0 faults)" "$tmp/bsr7_err")
		[ "$k7" = 3 ] && [ "$ok7" = 3 ] || { echo "FAIL: KIND 7 verified best on $k7 of 3 problems, $ok7 searched clean:";
			grep " ok, .* wrong, .* faults)" "$tmp/bsr7_err"; cat "$tmp/bsr7_out.csv"; fail=1; }
		grep " ok, .* wrong, .* faults)" "$tmp/bsr7_err" | sed 's/^ *//; s/^/KIND 7: /' | cut -c1-120
	fi
	grep -q "^    data: A: 150000 nonzeros (10.00%), rows of [0-9]*-5000 " "$tmp/err" ||
		{ echo "FAIL: $prec: the skewed SpMV matrix's row 0 does not hold 5000 of its 150000 nonzeros"; fail=1; }
	col='NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'
	sed 's/"[^"]*"/x/g' "$tmp/out.csv" | awk -F, "$col"' !c["verified"] || $c["verified"] != 1 {bad=1} END {exit bad}' ||
		{ echo "FAIL: $prec: a row without a verified winner"; fail=1; }
	sed 's/"[^"]*"/x/g' "$tmp/out.csv" | awk -F, "$col"' !($c["cusparse_us"] + 0 > 0) || !($c["dense_us"] + 0 > 0) {bad=1}
		END {exit bad}' || { echo "FAIL: $prec: a row without a verified cuSPARSE or dense time"; fail=1; }
	grep " ok, .* wrong, .* faults)" "$tmp/err" | sed 's/^ *//' | cut -c1-120
	cat "$tmp/out.csv"
done
# A from a Matrix Market file: 997 x 1013, 20 entries a row at distinct columns, values up to 99.5 in magnitude
# (the tolerance scales with them), every candidate verified, the key naming the file's hash
awk 'BEGIN { print "%%MatrixMarket matrix coordinate real general"; print "997 1013 19940";
	for (i = 1; i <= 997; i++) for (j = 0; j < 20; j++) printf "%d %d %.1f\n", i, (i * 37 + j * 101) % 1013 + 1, (i * 7 + j * 13) % 200 - 99.5 }' \
	>"$tmp/a.mtx"
"$bin" --op spmm --matrix "$tmp/a.mtx" --n 37 --strategy exhaustive --fixed-samples 1 --db "$tmp/db" --csv -v \
	>"$tmp/file.csv" 2>"$tmp/file.err" || { echo "FAIL: --matrix: dlbtune exited $?"; tail -20 "$tmp/file.err"; fail=1; }
grep -q " ok, 0 wrong, 0 faults)" "$tmp/file.err" && grep -q "^    data: A: 19940 nonzeros " "$tmp/file.err" &&
	sed 's/"[^"]*"/x/g' "$tmp/file.csv" | awk -F, "$col"' NR == 2 && $c["verified"] == 1 && $c["layout"] == "file" {ok=1}
		END {exit !ok}' || { echo "FAIL: --matrix: not every candidate verified, or the row is not the file's:";
	grep -E "ok, |data:" "$tmp/file.err"; cat "$tmp/file.csv"; fail=1; }
grep -E "^\[|data:" "$tmp/file.err"
echo "gpu_spmm: $([ $fail = 0 ] && echo passed || echo failed)"
exit $fail
