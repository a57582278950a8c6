#!/bin/sh
# kcache: the kernel cache through dlbtune compile (no GPU needed), on a sample of the fp32 space for sm_80.
# A second run reads every candidate from the cache and calls NVRTC for none; --no-cache compiles them all
# and leaves the cache as it was; an entry whose bytes were changed on disk is compiled again, never loaded;
# two processes filling one empty cache at once both succeed, and a third run compiles nothing.
top_builddir=${top_builddir:-.}
bin="$top_builddir/dlbtune"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/db"
args="compile --op gemm --arch sm_80 --every 40"

# counts OUTPUT: "CACHED COMPILED DAMAGED" from the line that says where the candidates came from
counts() {
	printf '%s\n' "$1" | sed -n 's/^gemm fp32: \([0-9]*\) read from the kernel cache, \([0-9]*\) compiled by NVRTC[^,]*\(, \([0-9]*\) damaged\)\{0,1\}.*/\1 \2 \4/p'
}
expect() { # LABEL OUTPUT CACHED COMPILED DAMAGED
	got=$(counts "$2")
	set -- "$1" "$2" "$3" "$4" "$5" $got
	if [ "$6" != "$3" ] || [ "$7" != "$4" ] || [ "${8:-0}" != "$5" ]; then
		echo "FAIL: $1: expected $3 cached, $4 compiled, $5 damaged; got: $(printf '%s\n' "$2" | grep 'kernel cache')"
		fail=1
	else
		echo "$1: $3 cached, $4 compiled, $5 damaged"
	fi
}

first=$("$bin" $args --db "$db" 2>&1) || { echo "FAIL: first run: $first"; exit 1; }
n=$(counts "$first" | cut -d' ' -f2)
[ "${n:-0}" -ge 5 ] || { echo "FAIL: first run compiled '${n}' candidates"; printf '%s\n' "$first"; exit 1; }
[ -f "$db/kernels/data.mdb" ] || { echo "FAIL: no kernel cache at $db/kernels"; exit 1; }
expect "second run" "$("$bin" $args --db "$db" 2>&1)" "$n" 0 0
expect "--no-cache" "$("$bin" $args --db "$db" --no-cache 2>&1)" 0 "$n" 0
expect "after --no-cache" "$("$bin" $args --db "$db" 2>&1)" "$n" 0 0

# db stats names the cache, its entries and bytes; db gc keeps what this build can use
stats=$("$bin" db stats --db "$db" 2>&1)
printf '%s\n' "$stats" | grep -Eq "^kernels +$n entries \(0 compile failures, 0 damaged\), [0-9.]+ MiB" ||
	{ echo "FAIL: db stats: $stats"; fail=1; }
gc=$("$bin" db gc --db "$db" 2>&1)
printf '%s\n' "$gc" | grep -q "^dropped 0 of $n kernel cache entries" || { echo "FAIL: db gc: $gc"; fail=1; }

# damage NTH: one byte inside the NTH entry's cubin, changed on disk (2000 bytes after the entry's magic)
damage() {
	at=$(grep -obUa "dlbkc01" "$db/kernels/data.mdb" | sed -n "$1p" | cut -d: -f1)
	[ -n "$at" ] || { echo "FAIL: no entry $1 found in the cache file"; return 1; }
	b=$(dd if="$db/kernels/data.mdb" bs=1 skip=$((at + 2000)) count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
	printf "$(printf '\\%03o' $(((b + 1) % 256)))" |
		dd of="$db/kernels/data.mdb" bs=1 seek=$((at + 2000)) conv=notrunc 2>/dev/null
}
if damage 1; then
	expect "one entry damaged" "$("$bin" $args --db "$db" -v 2>&1)" $((n - 1)) 1 1
	expect "after the repair" "$("$bin" $args --db "$db" 2>&1)" "$n" 0 0
else
	fail=1
fi
if damage 2; then
	stats=$("$bin" db stats --db "$db" 2>&1)
	printf '%s\n' "$stats" | grep -Eq "^kernels +$n entries \(0 compile failures, 1 damaged\)" ||
		{ echo "FAIL: db stats after damage: $stats"; fail=1; }
	gc=$("$bin" db gc --db "$db" 2>&1)
	printf '%s\n' "$gc" | grep -q "^dropped 1 of $n kernel cache entries" || { echo "FAIL: db gc: $gc"; fail=1; }
	expect "after gc" "$("$bin" $args --db "$db" 2>&1)" $((n - 1)) 1 0
else
	fail=1
fi

# two processes filling one empty cache at once
"$bin" $args --db "$tmp/two" >"$tmp/a" 2>&1 &
pa=$!
"$bin" $args --db "$tmp/two" >"$tmp/b" 2>&1
rb=$?
wait $pa
ra=$?
[ $ra = 0 ] && [ $rb = 0 ] || { echo "FAIL: concurrent runs exited $ra and $rb"; cat "$tmp/a" "$tmp/b"; fail=1; }
for f in a b; do
	grep -q "compiled $n candidates (every 40th configuration, as NN, NT, TN and TT) for sm_80, 0 failed" "$tmp/$f" ||
		{ echo "FAIL: concurrent run $f:"; cat "$tmp/$f"; fail=1; }
done
expect "after two at once" "$("$bin" $args --db "$tmp/two" 2>&1)" "$n" 0 0
# --only: the configurations whose text contains one of its pieces, each in the four layouts; a second run
# reads them from the cache
only='BM=128 BN=128 BK=8 TM=8 TN=8|BM=64 BN=64 BK=8 TM=4 TN=4'
out=$("$bin" compile --op gemm --arch sm_80 --only "$only" --db "$tmp/only" 2>&1)
printf '%s\n' "$out" | grep -q "^compiled 8 candidates (as NN, NT, TN and TT) for sm_80, 0 failed" ||
	{ echo "FAIL: --only: $out"; fail=1; }
expect "--only, again" "$("$bin" compile --op gemm --arch sm_80 --only "$only" --db "$tmp/only" 2>&1)" 8 0 0
exit $fail
