#!/bin/sh
# gpu_tune_cache: tune a problem into a fresh database, then run again: the rerun answers from the
# database, launches no kernel, and prints the same row; --retune measures again with the cached kernels; every row has a stream floor below its GEMM times and
# a side-by-side timing of the winner and the vendor best, and both their accuracies; a restricted search
# (--fp32-math ffma) is stored and answered under keys of its own; records without the l2_flush mark are
# answered with a note that counts them. Exit 77 without a GPU.
top_builddir=${top_builddir:-.}
bin="$top_builddir/dlbtune"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "${top_srcdir:-.}/tests/lib.sh"
require_gpu gpu_tune_cache
printf 'm,n,k,a_t,b_t\n129,35,1760,0,0\n35,16,4099,1,0\n' >"$tmp/s.csv"
"$bin" --op gemm --suite "$tmp/s.csv" --db "$tmp/db" --csv -v >"$tmp/first" 2>"$tmp/first.err" || {
	echo "FAIL: first run"; cat "$tmp/first.err"; exit 1; }
"$bin" --op gemm --suite "$tmp/s.csv" --db "$tmp/db" --csv -v >"$tmp/second" 2>"$tmp/second.err" || {
	echo "FAIL: second run"; cat "$tmp/second.err"; exit 1; }
# measured again: every point anew (none taken from the first run's trials), kernels from the cache
"$bin" --op gemm --suite "$tmp/s.csv" --db "$tmp/db" --csv -v --retune >"$tmp/third" 2>"$tmp/third.err" || {
	echo "FAIL: --retune run"; cat "$tmp/third.err"; exit 1; }
fail=0
grep -Eq "^kernels: [0-9]+ compiled by NVRTC .*, [1-9][0-9]* read from the kernel cache" "$tmp/third.err" ||
	{ echo "FAIL: --retune read nothing from the kernel cache"; grep "^kernels:" "$tmp/third.err"; fail=1; }
grep -q "trials taken from an interrupted run" "$tmp/third.err" && { echo "FAIL: --retune resumed stored trials"; fail=1; }
grep -q "kernel launches: 0," "$tmp/second.err" || { echo "FAIL: rerun launched kernels"; cat "$tmp/second.err"; fail=1; }
grep -q "2 of 2 problems answered from the database" "$tmp/second.err" || { echo "FAIL: rerun missed the cache"; fail=1; }
grep -q "kernel launches: 0," "$tmp/first.err" && { echo "FAIL: first run launched nothing"; fail=1; }
# records of this build say which flush they were timed after: no note; the same records without the mark (as a
# dlbtune before 5fff2aa wrote them) are answered too, with a note that counts them
grep -q "older L2 flush" "$tmp/second.err" && { echo "FAIL: this build's records counted as the older flush"; fail=1; }
"$bin" export --format json --db "$tmp/db" 2>/dev/null | sed 's/, *"l2_flush": *"read"//g' >"$tmp/old.json"
"$bin" import "$tmp/old.json" --db "$tmp/olddb" >/dev/null 2>&1 &&
	"$bin" --op gemm --suite "$tmp/s.csv" --db "$tmp/olddb" --csv -v >/dev/null 2>"$tmp/old.err" ||
	{ echo "FAIL: the unmarked records' run"; cat "$tmp/old.err"; fail=1; }
grep -q "note: 2 of the results answered from the database were timed after the older L2 flush" "$tmp/old.err" &&
	grep -q "2 of 2 problems answered from the database" "$tmp/old.err" ||
	{ echo "FAIL: no note for the unmarked records"; cat "$tmp/old.err"; fail=1; }
# columns by their header names, on rows whose quoted fields (vendor_best_config has commas) hold ';' instead
plain() { sed -e ':a' -e 's/^\(\([^"]*"[^"]*"\)*[^"]*"[^",]*\),/\1;/;ta' "$1"; }
plain "$tmp/first" >"$tmp/plain"
plain "$tmp/second" >"$tmp/plain2"
# same rows, apart from the cached column
drop_cached='NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cached") c = i } { out = ""; for (i = 1; i <= NF; i++) if (i != c) out = out (out == "" ? "" : ",") $i; print out }'
awk -F, "$drop_cached" "$tmp/plain" >"$tmp/a"
awk -F, "$drop_cached" "$tmp/plain2" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { echo "FAIL: rows differ"; diff "$tmp/a" "$tmp/b"; fail=1; }
col='NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'
plain "$tmp/third" >"$tmp/plain3"
for f in plain plain3; do
	awk -F, "$col"' !c["verified"] || $c["verified"] != 1 {bad=1} END {exit bad}' "$tmp/$f" ||
		{ echo "FAIL: unverified row (or no verified column) in $f"; fail=1; }
done
# the stream floor was measured, and it is below the vendor's and our time (it only moves the bytes)
awk -F, "$col"' { f = $c["floor_us"]; t = $c["tuned_us"]; v = $c["cublas_us"] }
	!c["floor_us"] || f == "n/a" || !(f > 0) || !(f < t) || (v != "n/a" && !(f < v)) {bad=1} END {exit bad}' \
	"$tmp/plain" || { echo "FAIL: no stream floor, or one above a GEMM's time"; fail=1; }
# the winner and the vendor best timed side by side: 30 pairs (the default), a speedup inside its CI, and
# times above the floor
awk -F, "$col"' { f = $c["floor_us"]; s = $c["paired_speedup"]; lo = $c["paired_speedup_lo"]; hi = $c["paired_speedup_hi"] }
	$c["paired_n"] != 30 || !(lo <= s) || !(s <= hi) || !(lo > 0) || !($c["paired_tuned_us"] > f) ||
	!($c["paired_vendor_us"] > f) || $c["paired_vendor"] == "\"\"" {bad=1} END {exit bad}' "$tmp/plain" ||
	{ echo "FAIL: a row without its side-by-side timing, or one that does not add up"; fail=1; }
# accuracy measured for the winner and the vendor best (fp32: |c - exact| / sum |a b| of rounding size, far
# below 1e-5; a wrong kernel is O(1)), and the same numbers from the database on the rerun
awk -F, "$col"' { a = $c["rel_err_max"]; b = $c["rel_err_mean"]; v = $c["vendor_rel_err_max"] }
	!c["rel_err_max"] || a == "n/a" || v == "n/a" || !(a >= 0) || !(a < 1e-5) || !(b <= a) || !(v >= 0) ||
	!(v < 1e-5) {bad=1} END {exit bad}' "$tmp/plain" ||
	{ echo "FAIL: accuracy not measured, or not of fp32 rounding size"; fail=1; }
# cuBLAS in TF32 math beside the strict baselines, verified against TF32's tolerance (never the vendor best)
awk -F, "$col"' !c["cublas_tf32_us"] || !($c["cublas_tf32_us"] > 0) || $c["vendor_best"] ~ /TF32/ {bad=1} END {exit bad}' \
	"$tmp/plain" || { echo "FAIL: no verified TF32 entry, or one taken as the fp32 baseline"; fail=1; }
[ "$(grep -c 'side by side with .*, 30 pairs: .* paired speedup .*x \[' "$tmp/first.err")" = 2 ] ||
	{ echo "FAIL: the run did not report 2 side-by-side timings"; fail=1; }
# a restricted search (--fp32-math ffma: the FFMA families only) is stored under keys of its own (|only=): its
# rerun answers from the database, its winners are FFMA, export shows it only when asked, db list shows both
"$bin" --op gemm --suite "$tmp/s.csv" --db "$tmp/db" --fp32-math ffma --csv >"$tmp/ffma1" 2>"$tmp/ffma1.err" &&
	"$bin" --op gemm --suite "$tmp/s.csv" --db "$tmp/db" --fp32-math ffma --csv -v >"$tmp/ffma2" 2>"$tmp/ffma2.err" ||
	{ echo "FAIL: --fp32-math ffma runs"; tail -5 "$tmp/ffma1.err" "$tmp/ffma2.err"; fail=1; }
grep -q "2 of 2 problems answered from the database" "$tmp/ffma2.err" ||
	{ echo "FAIL: the restricted rerun missed its stored results"; tail -3 "$tmp/ffma2.err"; fail=1; }
plain "$tmp/ffma1" | awk -F, "$col"' !c["kernel_family"] || $c["kernel_family"] !~ /^"FFMA/ {bad=1} END {exit bad}' ||
	{ echo "FAIL: a restricted winner outside the FFMA families"; cat "$tmp/ffma1"; fail=1; }
"$bin" export --format csv --db "$tmp/db" >"$tmp/e_all" 2>/dev/null
"$bin" export --format csv --fp32-math ffma --db "$tmp/db" >"$tmp/e_ffma" 2>/dev/null
[ "$(wc -l <"$tmp/e_all")" = 3 ] && [ "$(wc -l <"$tmp/e_ffma")" = 3 ] &&
	"$bin" db list --db "$tmp/db" 2>&1 | grep -q "^4 current results" ||
	{ echo "FAIL: the whole space's and the restricted results apart: $(wc -l <"$tmp/e_all") and $(wc -l <"$tmp/e_ffma") lines"; fail=1; }
cat "$tmp/first"
echo "gpu_tune_cache: $([ $fail = 0 ] && echo passed || echo failed)"
exit $fail
