#!/bin/sh
# db_damage: a corruption campaign (issue 34). A database with known contents (tests/data/records.json,
# imported) is damaged in many ways, each copy read by `db stats`, `db list`, `export` and `db verify`: random
# bytes overwritten anywhere, bytes overwritten near a page's header, a page zeroed, the file truncated at a
# page boundary and elsewhere, the lock file filled with garbage. No command may die by a signal (LMDB keeps
# no checksums: its assertions and bad pointers end in tests/../store/guard.c's message and exit 1), and every
# failure says why. `db salvage` runs on every copy too: it may not die by a signal either, and what it saves is
# counted. Then salvage on a larger database (DLB_SALVAGE_CASES copies of 100 results, one page overwritten
# each): the figures are the records saved against the records stored. An undamaged database salvages to an
# identical export. The damage is reproducible (awk's srand, by case number). DLB_DAMAGE_CASES sets the count.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
bin="$top_builddir/dlbtune"
cases=${DLB_DAMAGE_CASES:-240}
. "$top_srcdir/tests/lib.sh"
progress "db_damage: $cases damaged copies of a database, then salvages (minutes)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" import "$top_srcdir/tests/data/records.json" --db "$tmp/base" >/dev/null 2>&1 || { echo "FAIL: import"; exit 1; }
size=$(wc -c <"$tmp/base/data.mdb")
pages=$((size / 4096))
rnd() { awk -v s="$1" -v n="$2" 'BEGIN { srand(s); print int(rand() * n) }'; }
bytes() { awk -v s="$1" -v n="$2" 'BEGIN { srand(s); for (k = 0; k < n; k++) printf "%c", int(rand() * 256) }'; }
runs=0 crashes=0 silent=0 failed=0 i=0 saved=0 asan_lmdb=0
# A sanitizer build leaves faults to AddressSanitizer (store/guard.c steps aside): one whose faulting frame is
# in liblmdb is the damage the guard turns into its message in a normal build, counted apart; anything else
# without a reason fails.
lmdb_fault() { grep -q "ERROR: AddressSanitizer: \(SEGV\|BUS\)" "$1" && grep -m 1 "    #0 " "$1" | grep -q liblmdb; }
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
			if lmdb_fault "$tmp/err"; then
				asan_lmdb=$((asan_lmdb + 1))
			elif ! grep -q "dlbtune: error: " "$tmp/err"; then
				silent=$((silent + 1))
				echo "FAIL: case $i: $cmd exit $rc without a reason"
			fi
		fi
	done
	rm -rf "$tmp/s"
	"$bin" db salvage "$tmp/s" --db "$tmp/d" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	runs=$((runs + 1))
	if [ $rc -ge 128 ]; then
		crashes=$((crashes + 1))
		echo "FAIL: case $i (damage $((i % 6))): db salvage died with $rc: $(head -c 200 "$tmp/err")"
	elif [ $rc != 0 ] && lmdb_fault "$tmp/err"; then
		asan_lmdb=$((asan_lmdb + 1))
	elif [ $rc != 0 ] && ! grep -q "dlbtune: error: " "$tmp/err"; then
		silent=$((silent + 1))
		echo "FAIL: case $i: db salvage exit $rc without a reason"
	fi
	saved=$((saved + $(sed -n 's/^saved \([0-9]*\) records.*/\1/p' "$tmp/out" | head -n 1) + 0))
	i=$((i + 1))
done
echo "db_damage: $cases damaged copies, $runs reads and salvages: $crashes died by a signal, $failed refused with a reason, $silent without; salvage saved $saved of $((cases * 24)) records"
[ $asan_lmdb = 0 ] || echo "db_damage: sanitizer build: $asan_lmdb reads faulted inside liblmdb (the guard's case)"

# salvage of an undamaged database: everything, and the same export
rm -rf "$tmp/s"
"$bin" db salvage "$tmp/s" --db "$tmp/base" >"$tmp/out" 2>&1 && grep -q "^saved 24 records; 0 failed" "$tmp/out" ||
	{ echo "FAIL: salvage of an undamaged database:"; cat "$tmp/out"; crashes=$((crashes + 1)); }
"$bin" export --any-version --format json --db "$tmp/base" >"$tmp/a.json" 2>/dev/null
"$bin" export --any-version --format json --db "$tmp/s" >"$tmp/b.json" 2>/dev/null
cmp -s "$tmp/a.json" "$tmp/b.json" || { echo "FAIL: the salvaged database exports differently"; crashes=$((crashes + 1)); }
"$bin" db salvage "$tmp/s" --db "$tmp/base" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "already holds a database" "$tmp/err" || { echo "FAIL: salvage over a database"; crashes=$((crashes + 1)); }

# a larger database: 100 results (the first record of records.json under 100 shapes), one page overwritten
big="$tmp/big"
n=1
while [ $n -le 100 ]; do
	sed "s/1760x16x1760/1760x${n}x1760/g" "$top_srcdir/tests/data/records.json" >"$tmp/r.json"
	"$bin" import "$tmp/r.json" --db "$big" >/dev/null 2>&1 || { echo "FAIL: import $n"; exit 1; }
	n=$((n + 1))
done
total=$("$bin" db stats --db "$big" | awk '$1 == "platforms" || $1 == "trials" || $1 == "best" || $1 == "vendor" { s += $2 } END { print s }')
size=$(wc -c <"$big/data.mdb")
pages=$((size / 4096))
scases=${DLB_SALVAGE_CASES:-40}
i=0 ssaved=0 some=0
while [ $i -lt "$scases" ]; do
	rm -rf "$tmp/d" "$tmp/s"
	cp -r "$big" "$tmp/d"
	bytes $((i + 101)) 4096 | dd of="$tmp/d/data.mdb" bs=4096 seek=$(($(rnd $((i + 100)) $((pages - 2))) + 2)) count=1 conv=notrunc 2>/dev/null
	"$bin" db salvage "$tmp/s" --db "$tmp/d" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -lt 128 ] || { crashes=$((crashes + 1)); echo "FAIL: salvage case $i died with $rc"; }
	got=$(sed -n 's/^saved \([0-9]*\) records.*/\1/p' "$tmp/out" | head -n 1)
	ssaved=$((ssaved + ${got:-0}))
	[ "${got:-0}" -gt 0 ] && some=$((some + 1))
	i=$((i + 1))
done
echo "db_damage: salvage of $scases copies of a database of $total records, one page in $pages overwritten in each: saved $ssaved of $((scases * total)) ($((ssaved * 100 / (scases * total)))%); something saved from $some"
# a page holds a few dozen records of one table: every copy keeps most of them
[ $((ssaved * 100 / (scases * total))) -ge 80 ] && [ $some = "$scases" ] || { echo "FAIL: salvage saved too little"; crashes=$((crashes + 1)); }
[ $crashes = 0 ] && [ $silent = 0 ]
