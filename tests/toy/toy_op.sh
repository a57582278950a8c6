#!/bin/sh
# toy_op: the tests' toy op (tests/toy/rowsum.c) through the dlbtune commands, as a user runs them, in
# tests/dlbtune_toy (dlbtune with the toy registered): --help, problem options and their errors, suites,
# `space`, `compile` (NVRTC, no GPU), then a database of toy results (toy_check --make-db) through db list,
# show and verify, every export format, import -> export as a fixed point, and lookup, stored and guessed.
# On a GPU the toy is also tuned end to end, and a rerun answers from the database with no GPU work.
top_builddir=${top_builddir:-.}
bin="$top_builddir/tests/dlbtune_toy"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# expect STATUS TEXT ARGS...: dlbtune_toy ARGS exits STATUS and prints TEXT (stdout or stderr)
expect() {
	want=$1 text=$2
	shift 2
	"$bin" "$@" >"$tmp/out" 2>&1
	got=$?
	if [ "$got" = "$want" ] && grep -qF -- "$text" "$tmp/out"; then ok; else
		bad "dlbtune_toy $* -> exit $got (want $want), wanted '$text' in: $(head -c 600 "$tmp/out")"
	fi
}

expect 0 "--op rowsum: y(rows) = scale * sum" --help
expect 0 "--rows rows" --help
expect 2 "--m is not a dimension of rowsum" --op rowsum --m 5 --cols 3
expect 2 "--scale '0.001'" --op rowsum --rows 4 --cols 4 --scale 0.001
expect 2 "one problem needs all of --rows and --cols" --op rowsum --rows 4
expect 2 "unknown suite 'nosuch' for --op rowsum (built in: small" --op rowsum --suite nosuch
printf 'rows,cols\n4,4\n4,0\n' >"$tmp/bad.csv"
expect 2 "bad.csv:3: cols '0'" --op rowsum --suite "$tmp/bad.csv"
expect 0 "BLOCK " space --op rowsum -v
expect 0 "threads per row BLOCK/ROWS in [8, 256]" space --op rowsum
expect 0 "compiled 15 candidates for sm_90a, 0 failed" compile --op rowsum --arch sm_90a
expect 0 "compiled 15 candidates for sm_80, 0 failed" compile --op rowsum --arch sm_80

# the database: two toy results, measured on "Test GPU"
"$top_builddir/tests/toy_check" --make-db "$tmp/db" >"$tmp/make" 2>&1 || bad "toy_check --make-db: $(cat "$tmp/make")"
expect 0 "rowsum fp32 - 1024x4096x1.00 on Test GPU" db list --any-version --db "$tmp/db"
expect 0 "0 problems" db verify --db "$tmp/db"
expect 0 "key        v2|rowsum|fp32|-|4096x1024x0.50|" db show --op rowsum --rows 4096 --cols 1024 --scale 0.5 --db "$tmp/db"
expect 0 "stored best for rowsum fp32 - 1024x4096x1.00: BLOCK=256 ROWS=2" \
	lookup --op rowsum --rows 1024 --cols 4096 --any-version --db "$tmp/db"
expect 0 "GUESS for rowsum fp32 - 1000x4096x1.00 (not tuned): BLOCK=256 ROWS=2" \
	lookup --op rowsum --rows 1000 --cols 4096 --any-version --db "$tmp/db"
expect 0 "Tune it: dlbtune --op rowsum --prec fp32 --rows 1000 --cols 4096 --scale 1.00" \
	lookup --op rowsum --rows 1000 --cols 4096 --any-version --db "$tmp/db"
for f in csv json md h; do
	"$bin" export --format $f --any-version --db "$tmp/db" >"$tmp/x.$f" 2>"$tmp/err" || bad "export $f: $(cat "$tmp/err")"
done
grep -q '^gpu,gpu_id,driver,cuda,op,rows,cols,scale,prec,best_config,' "$tmp/x.csv" && ok || bad "export csv header: $(head -1 "$tmp/x.csv")"
grep -q '^"Test GPU",GPU-toy,13000,13000,rowsum,4096,1024,0.5,fp32,"BLOCK=256 ROWS=2",12.500,' "$tmp/x.csv" && ok ||
	bad "export csv row: $(cat "$tmp/x.csv")"
grep -q '| rows | cols | scale | best config |' "$tmp/x.md" && ok || bad "export md: $(cat "$tmp/x.md")"
grep -q '"op":"rowsum","prec":"fp32","rows":1024,"cols":4096,"scale":1.0' "$tmp/x.json" && ok || bad "export json: $(head -c 400 "$tmp/x.json")"
printf '#include "%s"\nint main(void) { return dlbtune_rowsum_best_count == 2 && dlbtune_rowsum_best[0].scale > 0 ? 0 : 1; }\n' \
	"$tmp/x.h" >"$tmp/h.c"
${CC:-cc} -Wall -Werror -o "$tmp/h" "$tmp/h.c" 2>"$tmp/cc" && "$tmp/h" && ok || bad "export h: $(cat "$tmp/cc") $(cat "$tmp/x.h")"
"$bin" import "$tmp/x.json" --db "$tmp/db2" >/dev/null 2>&1 || bad "import of the export"
"$bin" export --format json --any-version --db "$tmp/db2" >"$tmp/y.json" 2>/dev/null
cmp -s "$tmp/x.json" "$tmp/y.json" && ok || bad "import -> export is not a fixed point: $(diff "$tmp/x.json" "$tmp/y.json" | head -5)"

# a GPU: tune the built-in suite end to end, then the rerun answers from the database
"$bin" devices >/dev/null 2>&1
case $? in
0)
	"$bin" --op rowsum --db "$tmp/g" --csv -v >"$tmp/first" 2>"$tmp/first.err" || bad "tune: $(tail -5 "$tmp/first.err")"
	"$bin" --op rowsum --db "$tmp/g" --csv -v >"$tmp/second" 2>"$tmp/second.err" || bad "retune: $(tail -5 "$tmp/second.err")"
	grep -q "4 of 4 problems answered from the database" "$tmp/second.err" && grep -q "kernel launches: 0," "$tmp/second.err" &&
		ok || bad "the rerun did GPU work: $(cat "$tmp/second.err")"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["verified"] != 1 || $c["unit"] != "GB/s" || !($c["tuned_us"] > 0) || !($c["naive_us"] > 0) {bad=1}
		END {exit bad || NR != 5}' "$tmp/first" && ok || bad "tuned rows: $(cat "$tmp/first")"
	cat "$tmp/first"
	"$bin" --op rowsum --db "$tmp/g" | tail -8
	;;
3) [ -n "$DLB_REQUIRE_GPU" ] && bad "no GPU, and one is required" ;;
*) bad "dlbtune_toy devices failed" ;;
esac
echo "toy_op: $pass passed, $fail failed"
[ $fail = 0 ]
