#!/bin/sh
# slurm_local: the Slurm example of docs/slurm run without a cluster. The array script runs as N local processes
# with the variables Slurm would set (no --shard): with --dry-run, their parts of each built-in conv and gemm
# suite are disjoint and together the whole suite. Then merge.sbatch joins part databases (made by import here:
# no GPU) into one that exports exactly as a database that imported everything directly. CPU only.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
bin="$top_builddir/dlbtune"
case $bin in /*) ;; *) bin="$(pwd)/$bin" ;; esac
slurm="$top_srcdir/docs/slurm"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

for n in 1 3 7; do
	for suite in "--op gemm --suite training" "--op conv --suite inference_server" "--op gemm --prec int8 --suite inference_server"; do
		: >"$tmp/parts"
		i=0
		while [ $i -lt $n ]; do
			# shellcheck disable=SC2086
			SLURM_ARRAY_TASK_ID=$((i + 5)) SLURM_ARRAY_TASK_MIN=5 SLURM_ARRAY_TASK_COUNT=$n DLBTUNE="$bin" \
				DLBTUNE_DB="$tmp/db" bash "$slurm/tune-array.sbatch" $suite --dry-run >"$tmp/part$i" 2>"$tmp/err$i" ||
				bad "task $i of $n ($suite): $(cat "$tmp/err$i")"
			if [ $n -gt 1 ]; then
				grep -q "part $i of 0..$((n - 1)) (SLURM_ARRAY_TASK_ID)" "$tmp/err$i" && ok ||
					bad "task $i of $n ($suite) did not take its part from Slurm: $(cat "$tmp/err$i")"
			fi
			grep -v '^task ' "$tmp/part$i" | cut -f1 >>"$tmp/parts"
			i=$((i + 1))
		done
		# shellcheck disable=SC2086
		"$bin" $suite --dry-run 2>/dev/null | cut -f1 | sort >"$tmp/whole"
		sort "$tmp/parts" >"$tmp/parts.sorted"
		[ -s "$tmp/whole" ] && cmp -s "$tmp/whole" "$tmp/parts.sorted" && ok ||
			bad "$n parts of $suite are not the suite: $(diff "$tmp/whole" "$tmp/parts.sorted" | head -5)"
		[ "$(sort -u "$tmp/parts" | wc -l)" = "$(sort -u "$tmp/whole" | wc -l)" ] && ok || bad "$suite: lost problems"
	done
done
[ ! -d "$tmp/db" ] && ok || bad "a dry run created a database"

# The merge job: two parts (what two tasks stored), then merge.sbatch 2; a missing part is named and fails it.
mkdir -p "$tmp/db/shards"
"$bin" import "$top_srcdir/tests/data/records.json" --db "$tmp/db/shards/0-of-2" >/dev/null 2>&1 || bad "import part 0"
"$bin" import "$top_srcdir/tests/data/spmm_record.json" --db "$tmp/db/shards/1-of-2" >/dev/null 2>&1 || bad "import part 1"
DLBTUNE="$bin" DLBTUNE_DB="$tmp/db" bash "$slurm/merge.sbatch" 2 >"$tmp/merge.out" 2>&1 && ok ||
	bad "merge.sbatch: $(cat "$tmp/merge.out")"
"$bin" import "$top_srcdir/tests/data/records.json" --db "$tmp/one" >/dev/null 2>&1
"$bin" import "$top_srcdir/tests/data/spmm_record.json" --db "$tmp/one" >/dev/null 2>&1
"$bin" export --format json --any-version --db "$tmp/db" >"$tmp/merged.json" 2>"$tmp/err" || bad "export: $(cat "$tmp/err")"
"$bin" export --format json --any-version --db "$tmp/one" >"$tmp/one.json" 2>"$tmp/err" || bad "export: $(cat "$tmp/err")"
[ -s "$tmp/one.json" ] && cmp -s "$tmp/one.json" "$tmp/merged.json" && ok ||
	bad "the merged parts export differently from one database: $(diff "$tmp/one.json" "$tmp/merged.json" | head -5)"
DLBTUNE="$bin" DLBTUNE_DB="$tmp/db" bash "$slurm/merge.sbatch" 3 >"$tmp/merge3.out" 2>&1 && bad "3 parts of 2 merged" ||
	{ grep -q "part 2 of 3: no database" "$tmp/merge3.out" && ok || bad "missing part not named: $(cat "$tmp/merge3.out")"; }

echo "slurm_local: $pass passed, $fail failed"
[ $fail -eq 0 ]
