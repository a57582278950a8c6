#!/bin/sh
# spmm_cli: the sparse family without a GPU. Bad problems are refused with exit 2 and the reason (a zero size, a
# sparsity of 1 or below 0, an unknown pattern, blocks larger than the matrix, more nonzeros than 32-bit
# indices hold, on the command line and in a suite row; a malformed Matrix Market file, named with its line);
# a stored result imports, answers lookup and exports a C header that compiles; the built-in suite parses; the
# space has candidates of each kernel family and every one compiles for sm_90a with 0 failures and no register
# spills, in fp32 and in fp16.
top_builddir=${top_builddir:-.}
bin="$top_builddir/dlbtune"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export DLBTUNE_DB="$tmp/db"
shape="--m 100 --n 4 --k 50"

. "${top_srcdir:-.}/tests/lib.sh"
refused "zero rows" "--m '0': expected a size in 1.." "$bin" lookup --op spmm --m 0 --n 4 --k 50 --sparsity 0.9
refused "sparsity 1" "--sparsity '1': out of range 0.0000..0.9999" "$bin" lookup --op spmm $shape --sparsity 1
refused "negative sparsity" "--sparsity '-0.1'" "$bin" lookup --op spmm $shape --sparsity -0.1
refused "no sparsity" "--sparsity" "$bin" lookup --op spmm $shape
refused "an unknown pattern" "block:3x3" "$bin" lookup --op spmm $shape --sparsity 0.9 --pattern block:3x3
refused "blocks larger than the matrix" "blocks of 32x32 do not fit a 100x16 matrix" \
	"$bin" lookup --op spmm --m 100 --n 4 --k 16 --sparsity 0.9 --pattern block:32x32
refused "too many nonzeros" "the kernels' 32-bit indices hold at most 2^31 - 1" \
	"$bin" lookup --op spmm --m 100000 --n 4 --k 100000 --sparsity 0.5
refused "a dim of another op" "--w is not a dimension of spmm" "$bin" lookup --op spmm $shape --sparsity 0.9 --w 5
printf 'm,n,k,sparsity\n100,4,50,0.9\n100,4,50,1.5\n' >"$tmp/bad.csv"
refused "a suite row" "bad.csv:3: sparsity '1.5'" "$bin" compile --op spmm --suite "$tmp/bad.csv"

# --matrix FILE: a malformed file names its line; the file decides M, K and the sparsity; --n is still needed
printf '%%%%MatrixMarket matrix coordinate real general\n%% a comment\n4 5 3\n1 1 0.5\n2 3 -1.25\n4 5 2\n' >"$tmp/good.mtx"
printf '%%%%MatrixMarket matrix coordinate real general\n4 5 3\n1 1 0.5\n2 9 -1.25\n4 5 2\n' >"$tmp/bad.mtx"
refused "an entry outside the matrix" "bad.mtx:4: entry (2, 9) is outside the 4 x 5 matrix" \
	"$bin" compile --op spmm --matrix "$tmp/bad.mtx" --n 4
refused "a dim the file decides" "--m and --matrix: the FILE decides M" \
	"$bin" compile --op spmm --matrix "$tmp/good.mtx" --n 4 --m 4
refused "a file without --n" "(missing: --n)" "$bin" compile --op spmm --matrix "$tmp/good.mtx"
refused "a file that is not there" "cannot read $tmp/none.mtx" "$bin" compile --op spmm --matrix "$tmp/none.mtx" --n 1
# a size line promising 2^31-1 entries, then one: the reader grows its arrays as entries come (in 2 GB of address
# space it used to ask for 60 GB first and fail with "out of memory")
printf '%%%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 2147483647\n1 1 1.0\n' >"$tmp/big.mtx"
refused "a size line alone" "big.mtx:3: the file ends after 1 of its 2147483647 entries" \
	sh -c 'ulimit -v 2000000 && exec "$@"' sh "$bin" compile --op spmm --matrix "$tmp/big.mtx" --n 4
# no entries at all, with 606165496 rows: refused at its size line (it used to allocate 4.85 GB of row offsets first)
printf '%%%%MatrixMarket matrix coordinate real general\n606165496 4 0\n' >"$tmp/empty.mtx"
refused "no entries" "empty.mtx:2: the size line declares no entries" \
	sh -c 'ulimit -v 2000000 && exec "$@"' sh "$bin" compile --op spmm --matrix "$tmp/empty.mtx" --n 4
out=$("$bin" compile --op spmm --matrix "$tmp/good.mtx" --n 4 2>&1) || { echo "FAIL: compile --matrix: $out"; fail=1; }

# a stored result (tests/data/spmm_record.json, measured on an H100) imports, answers lookup (and its nearest
# sparsity as a labelled guess), and exports a C header whose fields are identifiers (matrix-seed: matrix_seed)
# and which compiles
"$bin" import "${top_srcdir:-.}/tests/data/spmm_record.json" --db "$tmp/idb" >/dev/null 2>&1 ||
	{ echo "FAIL: import of an spmm record"; fail=1; }
out=$("$bin" lookup --op spmm --m 7680 --n 1500 --k 2560 --sparsity 0.9 --db "$tmp/idb" --any-version 2>&1)
printf '%s\n' "$out" | grep -q "stored best for spmm fp32 uniform 7680x1500x2560x0.9000x1: KIND=1 " ||
	{ echo "FAIL: lookup: $out"; fail=1; }
# its GB/s as a share of the memory bandwidth it records (mem_peak 3352.32 GB/s): 81 GB/s, 2.4%
"$bin" export --format csv --db "$tmp/idb" --any-version 2>/dev/null | sed 's/"[^"]*"/x/g' |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { g = $c["tuned_gbps"]; p = $c["tuned_pct_hbm"] }
		END { exit !(g == 81 && p == 2.4) }' || { echo "FAIL: export: tuned_gbps or tuned_pct_hbm"; fail=1; }
out=$("$bin" lookup --op spmm --m 7680 --n 1500 --k 2560 --sparsity 0.85 --db "$tmp/idb" --any-version 2>&1)
printf '%s\n' "$out" | grep -q "GUESS for spmm fp32 uniform 7680x1500x2560x0.8500x1" || { echo "FAIL: lookup guess: $out"; fail=1; }
"$bin" export --format h --db "$tmp/idb" --any-version >"$tmp/best.h" 2>/dev/null &&
	grep -q "long long m, n, k, matrix_seed;" "$tmp/best.h" &&
	printf '#include "%s"\nint main(void) { return dlbtune_spmm_best_count != 1; }\n' "$tmp/best.h" >"$tmp/t.c" &&
	${CC:-cc} -Wall -Werror -o "$tmp/t" "$tmp/t.c" && "$tmp/t" || { echo "FAIL: the exported header:"; cat "$tmp/best.h"; fail=1; }

# the built-in suite parses (compile reads the suite before compiling; --every keeps it short)
out=$("$bin" compile --op spmm --suite inference_server --every 40 2>&1) || { echo "FAIL: suite: $out"; fail=1; }

# the space: each kernel family present, every candidate compiles for sm_90a, none spills; in fp32 and in fp16
# (the same kernels reading and writing half)
for prec in fp32 fp16; do
	n=$("$bin" space --op spmm --prec $prec --arch sm_90a 2>&1 | sed -n 's/^candidates to compile *\([0-9]*\)$/\1/p')
	[ "${n:-0}" -ge 100 ] || { echo "FAIL: space --op spmm --prec $prec: '$n' candidates"; fail=1; }
	for k in 0 1 2 3 4 $([ $prec = fp16 ] && echo 5) 6 $([ $prec = fp16 ] && echo 7); do
		c=$("$bin" space --op spmm --prec $prec --arch sm_90a -v 2>/dev/null | grep -c "KIND=$k ")
		[ "$c" -ge 10 ] || { echo "FAIL: space --op spmm --prec $prec: $c candidates of KIND=$k"; fail=1; }
	done
	out=$("$bin" compile --op spmm --prec $prec --arch sm_90a -v 2>&1)
	last=$(printf '%s\n' "$out" | tail -n 1)
	echo "spmm $prec sm_90a: $last"
	[ "$last" = "compiled $n candidates for sm_90a, 0 failed" ] || { echo "FAIL: compile $prec: $last"; fail=1; }
	spills=$(printf '%s\n' "$out" | grep -E '[1-9][0-9]* B spill st|/[1-9][0-9]* B ld')
	[ -z "$spills" ] || { echo "FAIL: $prec candidates spill registers:"; printf '%s\n' "$spills" | cut -c1-200; fail=1; }
done
# every spmm fp32 family is classic fp32 arithmetic (its name begins with FFMA): --fp32-math ffma keeps them all
out=$("$bin" compile --op spmm --arch sm_90a --every 40 --fp32-math ffma -v 2>&1)
printf '%s\n' "$out" | grep -q "left out" && { echo "FAIL: --fp32-math ffma left spmm candidates out"; fail=1; }
printf '%s\n' "$out" | tail -n 1 | grep -q "^compiled [1-9][0-9]* candidates .*, 0 failed$" ||
	{ echo "FAIL: compile spmm --fp32-math ffma: $(printf '%s\n' "$out" | tail -n 1)"; fail=1; }
exit $fail
