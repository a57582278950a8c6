#!/bin/sh
# fuzz_replay: every input of each fuzz harness's corpus (tests/fuzz/corpus/NAME: seeds, and inputs that once
# crashed it) replayed through the harness as `make check` builds it. A crash, a sanitizer report in a
# sanitizer build, or a harness that replayed nothing fails.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
fail=0
for name in suite record cli mtx onnx; do
	out=$("$top_builddir/tests/fuzz/replay_$name" "$top_srcdir/tests/fuzz/corpus/$name" 2>/dev/null)
	rc=$?
	n=$(printf '%s\n' "$out" | sed -n 's/^replayed \([0-9]*\) inputs$/\1/p')
	if [ $rc != 0 ] || [ "${n:-0}" -lt 1 ]; then
		echo "FAIL: replay_$name: exit $rc, '$out'"
		fail=1
	else
		echo "replay_$name: $n inputs"
	fi
done
exit $fail
