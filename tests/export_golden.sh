#!/bin/sh
# export_golden: the records of tests/data/records.json, imported, export byte for byte as the golden files in
# tests/golden/ (csv, md, h, json); the header compiles; the l2_flush mark survives import and export; import -> export -> import is a fixed point; lookup
# answers stored and nearest shapes; db gc drops the trials of stale results only. CPU only.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
bin="$top_builddir/dlbtune"
data="$top_srcdir/tests/data/records.json"
golden="$top_srcdir/tests/golden"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

"$bin" import "$data" --db "$tmp/a" >"$tmp/imp1" 2>"$tmp/imp1.err" || bad "import: $(cat "$tmp/imp1.err")"
[ "$(grep -c '^added ' "$tmp/imp1")" = 5 ] && ok || bad "first import did not add 5 results: $(cat "$tmp/imp1")"
grep -q "5 results added, 0 replaced.*8 trials added.*3 platforms added" "$tmp/imp1.err" && ok ||
	bad "import summary: $(cat "$tmp/imp1.err")"
"$bin" db verify --db "$tmp/a" >"$tmp/verify" 2>&1 && grep -q " 0 problems; 5 results, 8 trials" "$tmp/verify" &&
	ok || bad "db verify: $(cat "$tmp/verify")"

# An export made before keys named the GPU's model (key version 1, uuid=) imports as the same records with
# model keys, exporting byte for byte as the golden file.
"$bin" import "$top_srcdir/tests/data/records_v1.json" --db "$tmp/v1" >/dev/null 2>"$tmp/err" || bad "import v1: $(cat "$tmp/err")"
"$bin" export --format json --any-version --db "$tmp/v1" >"$tmp/v1.json" 2>"$tmp/err" || bad "export v1: $(cat "$tmp/err")"
cmp -s "$golden/records.json" "$tmp/v1.json" && ok || bad "version-1 keys imported differently: $(diff "$golden/records.json" "$tmp/v1.json" | head -c 600)"

# The fixture was measured with another template: stale here, so only --any-version exports it.
for f in csv md h json; do
	"$bin" export --format $f --any-version --db "$tmp/a" >"$tmp/export.$f" 2>"$tmp/err" || bad "export $f: $(cat "$tmp/err")"
	if cmp -s "$golden/records.$f" "$tmp/export.$f"; then ok; else
		bad "export --format $f differs from tests/golden/records.$f:"
		diff "$golden/records.$f" "$tmp/export.$f" | head -20
	fi
done
"$bin" export --format csv --db "$tmp/a" >"$tmp/current.csv" 2>/dev/null
[ "$(wc -l <"$tmp/current.csv")" = 1 ] && ok || bad "default export included stale results"
"$bin" export --format csv --any-version --device H100 --db "$tmp/a" >"$tmp/h100.csv" 2>/dev/null
[ "$(wc -l <"$tmp/h100.csv")" = 3 ] && ! grep -q H200 "$tmp/h100.csv" && ok || bad "--device H100 filter"
"$bin" export --format csv --any-version --layout TN --db "$tmp/a" >"$tmp/tn.csv" 2>/dev/null
[ "$(wc -l <"$tmp/tn.csv")" = 2 ] && ok || bad "--layout TN filter"

# The flush a record was timed after: the fixture's records predate "l2_flush" and export without it (the golden
# files above); the same records marked "read" keep the mark through import and export.
sed 's/"record_version": 2,/"record_version": 2, "l2_flush": "read",/' "$data" >"$tmp/flush.json"
"$bin" import "$tmp/flush.json" --db "$tmp/fl" >/dev/null 2>"$tmp/err" || bad "import flush: $(cat "$tmp/err")"
"$bin" export --format json --any-version --db "$tmp/fl" >"$tmp/fl.json" 2>/dev/null
[ "$(grep -o '"l2_flush": *"read"' "$tmp/fl.json" | wc -l)" = 5 ] && ok || bad "l2_flush not kept by import and export"
! grep -q l2_flush "$tmp/export.json" && ok || bad "l2_flush in the older records' export"
# import and merge keep the marked side whatever its support: marked over unmarked replaces, the reverse keeps
"$bin" import "$data" --db "$tmp/fl" >/dev/null 2>"$tmp/err" && grep -q "0 results added, 0 replaced.*5 kept" "$tmp/err" &&
	ok || bad "unmarked records replaced marked ones: $(cat "$tmp/err")"
"$bin" import "$data" --db "$tmp/um" >/dev/null 2>&1
"$bin" import "$tmp/flush.json" --db "$tmp/um" >"$tmp/out" 2>"$tmp/err" && grep -q "0 results added, 5 replaced" "$tmp/err" &&
	grep -q "timed after the L2 flush that reads" "$tmp/out" && ok || bad "marked records did not replace: $(cat "$tmp/err" "$tmp/out")"

# db show: the side-by-side timing the fixture's 1760x16x1760 record has, and that the others have none.
"$bin" db show --m 1760 --n 16 --k 1760 --db "$tmp/a" >"$tmp/show" 2>&1
grep -q "^paired     with cublasLt algo 0, 30 pairs side by side: 16.704 us \[16.640, 16.768\] against 16.576 us .*speedup 0.992x \[0.989, 0.996\]" \
	"$tmp/show" && [ "$(grep -c '^paired     (not measured)' "$tmp/show")" = 1 ] && ok || bad "db show's paired lines: $(cat "$tmp/show")"

# The header is C a user can compile in.
${CC:-cc} -std=c99 -Wall -Wextra -Werror -c -x c "$tmp/export.h" -o "$tmp/h.o" && ok || bad "the exported header does not compile"

# import -> export -> import: the second import adds nothing and the export is the same bytes.
"$bin" import "$tmp/export.json" --db "$tmp/b" >/dev/null 2>&1 || bad "import of the export"
"$bin" export --format json --any-version --db "$tmp/b" >"$tmp/again.json" 2>/dev/null
cmp -s "$tmp/export.json" "$tmp/again.json" && ok || bad "export of the imported export differs"
"$bin" import "$tmp/again.json" --db "$tmp/b" >"$tmp/imp2" 2>"$tmp/imp2.err"
grep -q "0 results added, 0 replaced by better-supported ones, 5 kept.*0 trials added, 0 replaced; 0 platforms added" \
	"$tmp/imp2.err" && ok || bad "second import was not a no-op: $(cat "$tmp/imp2.err")"
"$bin" merge "$tmp/a" --db "$tmp/b" >/dev/null 2>"$tmp/merge.err"
grep -q "0 results added, 0 replaced by better-supported ones, 5 kept" "$tmp/merge.err" && ok ||
	bad "merge of the same records was not a no-op: $(cat "$tmp/merge.err")"
"$bin" merge "$tmp/a" --db "$tmp/c" >/dev/null 2>&1 && "$bin" export --format json --any-version --db "$tmp/c" \
	>"$tmp/merged.json" 2>/dev/null && cmp -s "$tmp/export.json" "$tmp/merged.json" && ok ||
	bad "merge into a fresh database lost something"

# lookup: exact shape, a guess from the nearest shape, nothing current
"$bin" lookup --m 1760 --n 16 --k 1760 --any-version --device H200 --db "$tmp/a" >"$tmp/l1" 2>&1 &&
	grep -q "stored best for gemm fp32 NN 1760x16x1760: BM=32 BN=16 BK=16 TM=4 TN=2 SPLITK=16" "$tmp/l1" && ok ||
	bad "lookup of a stored shape: $(cat "$tmp/l1")"
"$bin" lookup --m 1500 --n 20 --k 2000 --any-version --device H200 --db "$tmp/a" >"$tmp/l2" 2>&1 &&
	grep -q "GUESS for gemm fp32 NN 1500x20x2000 (not tuned)" "$tmp/l2" && grep -q "nearest tuned shape 1760x16x1760" "$tmp/l2" &&
	ok || bad "lookup of an untuned shape: $(cat "$tmp/l2")"
"$bin" lookup --m 1760 --n 16 --k 1760 --db "$tmp/a" >"$tmp/l3" 2>&1
[ $? = 1 ] && grep -q "no current verified result" "$tmp/l3" && ok || bad "lookup answered from stale results"

# gc: the trials of stale results go, their best rows stay
"$bin" db gc --dry-run --db "$tmp/b" >"$tmp/gc1" 2>&1 && grep -q "would delete 8 trials of 5 stale results" "$tmp/gc1" &&
	ok || bad "gc --dry-run: $(cat "$tmp/gc1")"
"$bin" db gc --db "$tmp/b" >"$tmp/gc2" 2>&1 && grep -q "deleted 8 trials of 5 stale results" "$tmp/gc2" && ok ||
	bad "gc: $(cat "$tmp/gc2")"
"$bin" db verify --db "$tmp/b" >"$tmp/verify2" 2>&1 && grep -q "5 results, 0 trials" "$tmp/verify2" && ok ||
	bad "after gc: $(cat "$tmp/verify2")"

# A restricted search's results (keys ending in |only=TEXT): the same records under restricted keys sit beside
# the whole space's; export shows the whole space's alone, and with --fp32-math ffma (or --only family:FFMA)
# the restricted ones alone, which read exactly as the golden file; db list shows all ten.
sed 's/\("key": "v2|[^"]*\)"/\1|only=family:FFMA"/' "$data" >"$tmp/only.json"
"$bin" import "$data" --db "$tmp/c" >/dev/null 2>"$tmp/err" && "$bin" import "$tmp/only.json" --db "$tmp/c" >"$tmp/imp3" 2>"$tmp/err" &&
	[ "$(grep -c '^added .*|only=family:FFMA$' "$tmp/imp3")" = 5 ] && ok || bad "import of restricted keys: $(cat "$tmp/imp3" "$tmp/err")"
"$bin" export --format csv --any-version --db "$tmp/c" >"$tmp/c.csv" 2>"$tmp/err" && cmp -s "$golden/records.csv" "$tmp/c.csv" &&
	ok || bad "export without a restriction: $(diff "$golden/records.csv" "$tmp/c.csv" | head -c 600) $(cat "$tmp/err")"
for r in "--fp32-math ffma" "--only family:FFMA"; do
	"$bin" export --format csv --any-version $r --db "$tmp/c" >"$tmp/c.csv" 2>"$tmp/err" &&
		cmp -s "$golden/records.csv" "$tmp/c.csv" && ok ||
		bad "export $r: $(diff "$golden/records.csv" "$tmp/c.csv" | head -c 600) $(cat "$tmp/err")"
done
"$bin" export --format csv --any-version --only family:3xTF32 --db "$tmp/c" >"$tmp/c.csv" 2>/dev/null
[ "$(wc -l <"$tmp/c.csv")" = 1 ] && ok || bad "export of another restriction: $(cat "$tmp/c.csv")"
"$bin" db list --any-version --db "$tmp/c" >"$tmp/list" 2>&1 && [ "$(grep -c ' \[only family:FFMA\]: ' "$tmp/list")" = 5 ] &&
	grep -q "^10 results in" "$tmp/list" &&
	ok || bad "db list of restricted results: $(cat "$tmp/list")"

echo "export_golden: $pass passed, $fail failed"
[ $fail = 0 ]
