#!/bin/sh
# db_damage: a corruption campaign (issue 34). A database with known contents (tests/data/records.json,
# imported) is damaged in many ways, each copy read by `db stats`, `db list`, `export` and `db verify`: random
# bytes overwritten anywhere, bytes overwritten near a page's header, a page zeroed, the file truncated at a
# page boundary and elsewhere, the lock file filled with garbage. No command may die by a signal (LMDB keeps
# no checksums: its assertions and bad pointers end in tests/../store/guard.c's message and exit 1), and every
# failure says why. The damage is reproducible (awk's srand, by case number). DLB_DAMAGE_CASES sets the count.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
bin="$top_builddir/dlbtune"
cases=${DLB_DAMAGE_CASES:-240}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" import "$top_srcdir/tests/data/records.json" --db "$tmp/base" >/dev/null 2>&1 || { echo "FAIL: import"; exit 1; }
size=$(wc -c <"$tmp/base/data.mdb")
pages=$((size / 4096))
rnd() { awk -v s="$1" -v n="$2" 'BEGIN { srand(s); print int(rand() * n) }'; }
bytes() { awk -v s="$1" -v n="$2" 'BEGIN { srand(s); for (k = 0; k < n; k++) printf "%c", int(rand() * 256) }'; }
runs=0 crashes=0 silent=0 failed=0 i=0
while [ $i -lt "$cases" ]; do
	rm -rf "$tmp/d"
	cp -r "$tmp/base" "$tmp/d"
	f="$tmp/d/data.mdb"
	case $((i % 6)) in
	0) bytes $((i + 7)) 8 | dd of="$f" bs=1 seek="$(rnd $i "$size")" conv=notrunc 2>/dev/null ;;
	1) bytes $((i + 7)) 8 | dd of="$f" bs=1 seek=$(($(rnd $i $pages) * 4096 + $(rnd $((i + 3)) 24))) conv=notrunc 2>/dev/null ;;
	2) dd if=/dev/zero of="$f" bs=4096 seek="$(rnd $i $pages)" count=1 conv=notrunc 2>/dev/null ;;
	3) truncate -s $(($(rnd $i $pages) * 4096)) "$f" ;;
	4) truncate -s "$(rnd $i "$size")" "$f" ;;
	5) bytes $((i + 7)) 4096 >"$tmp/d/lock.mdb"
	   bytes $((i + 11)) 8 | dd of="$f" bs=1 seek="$(rnd $i "$size")" conv=notrunc 2>/dev/null ;;
	esac
	for cmd in "db stats" "db list" "export --format csv" "db verify"; do
		# shellcheck disable=SC2086
		"$bin" $cmd --db "$tmp/d" >/dev/null 2>"$tmp/err"
		rc=$?
		runs=$((runs + 1))
		if [ $rc -ge 128 ]; then
			crashes=$((crashes + 1))
			echo "FAIL: case $i (damage $((i % 6))): $cmd died with $rc: $(head -c 200 "$tmp/err")"
		elif [ $rc != 0 ]; then
			failed=$((failed + 1))
			grep -q "dlbtune: error: " "$tmp/err" || { silent=$((silent + 1)); echo "FAIL: case $i: $cmd exit $rc without a reason"; }
		fi
	done
	i=$((i + 1))
done
echo "db_damage: $cases damaged copies, $runs reads: $crashes died by a signal, $failed refused with a reason, $silent without"
[ $crashes = 0 ] && [ $silent = 0 ]
