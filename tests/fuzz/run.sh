#!/bin/sh
# run.sh: `make fuzz`. Builds the library's sources and each harness with clang's libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer into fuzz-build/, then runs each harness for FUZZ_SECONDS (default 60) on a copy of
# its seed corpus (tests/fuzz/corpus/NAME). New inputs stay in fuzz-build/corpus/NAME; a crash is saved as
# fuzz-build/crashes/NAME/crash-* (copy it into tests/fuzz/corpus/NAME once fixed: `make check` replays it).
# Prints the CPU seconds, runs and crashes of each. Arguments (from Makefile.am): srcdir, the C preprocessor
# flags, the link flags and libraries, then the library's sources.
set -u
srcdir=$1 cppflags=$2 libs=$3
shift 3
CC_FUZZ=${CC_FUZZ:-clang}
secs=${FUZZ_SECONDS:-60}
out=fuzz-build
command -v "$CC_FUZZ" >/dev/null 2>&1 || { echo "fuzz: $CC_FUZZ not found (Debian: apt-get install clang)"; exit 1; }
mkdir -p "$out/obj" "$out/crashes" "$out/corpus"
# objects are rebuilt when their source is newer, and all of them when any header is: a struct that changed
# under an old object reads as memory corruption to the sanitizers
stamp="$out/obj/.headers"
if [ ! -f "$stamp" ] || [ -n "$(find "$srcdir/src" "$srcdir/store" "$srcdir/search" "$srcdir/reports" "$srcdir/tests/fuzz" \
	-name '*.h' -newer "$stamp" 2>/dev/null | head -n 1)" ]; then
	rm -f "$out"/obj/*.o
fi
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"
objs=""
for f in "$@"; do
	case $f in *.c) ;; *) continue ;; esac
	src=$f
	[ -f "$src" ] || src="$srcdir/$f"
	o="$out/obj/$(echo "$f" | tr / _).o"
	if [ ! -f "$o" ] || [ "$src" -nt "$o" ]; then
		# shellcheck disable=SC2086
		"$CC_FUZZ" -std=gnu11 $san -fsanitize=fuzzer-no-link $cppflags -c "$src" -o "$o" || { echo "fuzz: compiling $f failed"; exit 1; }
	fi
	objs="$objs $o"
done
touch "$stamp"
fail=0
for name in suite record cli mtx onnx; do
	bin="$out/fuzz_$name"
	# shellcheck disable=SC2086
	"$CC_FUZZ" -std=gnu11 $san -fsanitize=fuzzer $cppflags "$srcdir/tests/fuzz/fuzz_$name.c" $objs $libs -o "$bin" ||
		{ echo "fuzz: linking fuzz_$name failed"; exit 1; }
	mkdir -p "$out/corpus/$name" "$out/crashes/$name"
	cp "$srcdir/tests/fuzz/corpus/$name/"* "$out/corpus/$name/" 2>/dev/null
	t0=$(awk '{print $14 + $15}' /proc/self/stat 2>/dev/null)
	start=$(date +%s)
	ASAN_OPTIONS=detect_leaks=1 "$bin" -max_total_time="$secs" -rss_limit_mb=4096 -max_len=65536 \
		-artifact_prefix="$out/crashes/$name/" "$out/corpus/$name" >"$out/fuzz_$name.log" 2>&1
	rc=$?
	runs=$(sed -n "s/^Done \([0-9]*\) runs.*/\1/p" "$out/fuzz_$name.log")
	[ -n "$runs" ] || runs=$(grep -o '#[0-9]*' "$out/fuzz_$name.log" | tail -n 1 | tr -d '#')
	crashes=$(ls "$out/crashes/$name" | wc -l)
	echo "fuzz_$name: $(( $(date +%s) - start )) s (one core), ${runs:-?} runs, corpus $(ls "$out/corpus/$name" | wc -l) inputs, $crashes crash files, exit $rc"
	[ "$rc" = 0 ] || { fail=1; grep -E "ERROR|SUMMARY|runtime error" "$out/fuzz_$name.log" | head -n 5; }
done
exit $fail
