#!/bin/sh
# cli_errors: the binary's answers to bad input (exit 2, "dlbtune: error:" on stderr, before any GPU work),
# to --help/--version and `space` (no GPU needed), and to GPU commands on a machine without a GPU (exit 3, the
# cause named).
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
bin="$top_builddir/dlbtune"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export DLBTUNE_DB="$tmp/db"
pass=0
fail=0

# expect CODE PATTERN ARGS...: exit status CODE and PATTERN (grep -E) in stderr
expect() {
	code=$1 pattern=$2
	shift 2
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" = "$code" ] && grep -qE -- "$pattern" "$tmp/err"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: dlbtune $* -> exit $got (want $code), stderr: $(head -c 300 "$tmp/err")"
	fi
}

u='^dlbtune: error: '
expect 2 "$u.*--m '0'" --op gemm --m 0 --n 5 --k 5
expect 2 "$u.*--m '-3'" --op gemm --m -3 --n 5 --k 5
expect 2 "$u.*--n 'abc'" --op gemm --m 3 --n abc --k 5
expect 2 "$u.*--k '99999999999'" --op gemm --m 3 --n 5 --k 99999999999
expect 2 "$u.*--k '1e3'" --op gemm --m 3 --n 5 --k 1e3
expect 2 "$u.*all of --m, --n and --k" --op gemm --m 3 --n 5
expect 2 "$u.*unknown op 'conv9'" --op conv9
expect 2 "$u.*unknown precision 'fp64'" --prec fp64
# --prec: a list for tune and compile, each precision once; the others take one
expect 2 "$u--prec 'fp32,fp32': fp32 is given twice" --prec fp32,fp32
expect 2 "$u.*unknown precision 'fp64'" --prec fp32,fp64
expect 2 "$u--prec 'fp32,': an empty precision" compile --prec fp32,
expect 2 "$u--prec: a list of precisions goes with tune and compile" export --format csv --prec fp32,fp16
expect 2 "$u--prec: a list of precisions goes with tune and compile" space --prec fp32,int8
expect 2 "$u.*unknown layout 'XY'" --layout XY
expect 2 "$u.*--ta '2'" --ta 2
expect 2 "$u.*unknown option" --frobnicate
expect 2 "$u.*needs a value" --op
expect 2 "$u.*unknown command" frobnicate
expect 2 "$u.*unknown suite 'nope'.*training" --op gemm --suite nope
expect 2 "$u.*cannot read suite file" --op gemm --suite "$tmp/missing.csv"
printf 'm,n,k,a_t,b_t\n10,10,10,0,0\n\n# comment\n10,x,10,0,0\n' >"$tmp/bad.csv"
expect 2 "$u$tmp/bad.csv:5: n 'x': expected a size" --op gemm --suite "$tmp/bad.csv"
printf 'm,n,k,a_t,b_t\n10,10,10,0\n' >"$tmp/short.csv"
expect 2 "$u$tmp/short.csv:2: 4 fields" --op gemm --suite "$tmp/short.csv"
printf 'm,n,q,a_t,b_t\n' >"$tmp/hdr.csv"
expect 2 "$u.*hdr.csv:1: header has no column 'k'" --op gemm --suite "$tmp/hdr.csv"

# --help teaches, on stdout, exit 0; --version names the libraries
# database commands: usage errors first, then a missing database, unreadable input files
expect 2 "$u.*import needs an operand" import
expect 2 "$u.*merge needs an operand" merge
expect 2 "$u.*export needs --format" export
expect 2 "$u.*--format 'xml'" export --format xml
expect 2 "$u.*--format goes with the export" db list --format csv
expect 2 "$u.*--dry-run goes with tune, model and db gc" db list --dry-run
# several GPUs (--devices) and parts of a suite (--shard, a scheduler's variables)
expect 2 "$u--devices '0,0': GPU 0 is named twice" --devices 0,0
expect 2 "$u--devices '0,,1'" --devices 0,,1
expect 2 "$u--devices goes with tune" compile --devices all
expect 2 "$u.*choose one of --device and --devices" --device 1 --devices all
expect 2 "$u--shard '4/4': expected I/N" --shard 4/4
expect 2 "$u--per-gpu goes with tune" db list --per-gpu
expect 2 "$u--shard goes with tune and compile" db list --shard 0/2
expect 2 "$u--shard splits a suite or a sweep" --op gemm --m 5 --n 5 --k 5 --shard 0/2
export SLURM_ARRAY_TASK_ID=9 SLURM_ARRAY_TASK_COUNT=3
expect 2 "${u}a Slurm array task, but SLURM_ARRAY_TASK_ID=9, SLURM_ARRAY_TASK_MIN=unset and SLURM_ARRAY_TASK_COUNT=3" --op gemm
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT
expect 2 "$u.*one of --stale and --any-version" db list --stale --any-version
expect 2 "$u.*lookup needs the problem" lookup --m 5
expect 2 "$u.*db: expected a subcommand" db frob
expect 2 "$u.*unexpected argument 'x'" db list x
expect 2 "$u.*--device 'H200'" --op gemm --device H200
expect 2 "$u.*unknown op 'nosuch'" space --op nosuch
# A precision this build has no kernels for is refused up front, naming the ones built, whatever else the list
# holds (GPU or not); one it has shows its space, and int8 refuses a shape its padding would take past the limit.
built=$("$bin" --help | sed -n 's/.*Built in this binary: gemm: \([a-z0-9 ]*\).*/\1/p')
[ -n "$built" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: --help does not say what is built"; }
for p in fp16 int8; do
	case " $built " in
	*" $p "*)
		"$bin" space --op gemm --prec $p >"$tmp/out" 2>"$tmp/err" && grep -q "^space of gemm $p:" "$tmp/out" &&
			pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: space --prec $p: $(head -c 300 "$tmp/err")"; } ;;
	*)
		expect 2 "$u""gemm has no $p kernels in this build \(built: $built\)" space --op gemm --prec $p
		expect 2 "$u""gemm has no $p kernels in this build" --op gemm --prec fp32,$p --m 64 --n 64 --k 64
		expect 2 "$u""gemm has no $p kernels in this build" compile --op gemm --prec fp32,$p ;;
	esac
done
case " $built " in
*" int8 "*) expect 2 "$uthe command line: int8 pads 2147483647x1x1 to 2147483648x4x4, past the largest M" \
	--op gemm --prec int8 --m 2147483647 --n 1 --k 1 ;;
esac
expect 2 "$u.*--emit goes with the compile" space --emit "$tmp/e"
expect 2 "$u.*--only goes with tune, compile, export, lookup, report, db list and db show" simulate --only KIND=2
expect 2 "$u.*--only 'KIND=2|': .* none empty" compile --only 'KIND=2|'
expect 2 "$u.*--only 'KIND=9': no configuration of conv fp16 contains it" compile --op conv --prec fp16 --only KIND=9
expect 2 "$u.*--fp32-math 'tf32': give any .* or ffma" compile --fp32-math tf32
expect 2 "$u.*--fp32-math goes with tune, compile, export, lookup, report, db list and db show" space --op conv --fp32-math ffma
expect 2 "$u.*choose one of --fp32-math ffma and --only" compile --fp32-math ffma --only KIND=0
expect 2 "$u.*--only 'family:TF64': no configuration of conv fp32 contains it" compile --op conv --only family:TF64
expect 1 "$u.*no database at" db list --db "$tmp/none"
expect 1 "$u.*no database at" lookup --m 5 --n 5 --k 5 --db "$tmp/none"
expect 2 "$u.*cannot read .*missing.json" import "$tmp/missing.json" --db "$tmp/imp"
[ ! -e "$tmp/imp" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: a database was created for a missing file"; }
printf '{"format": "dlbtune-export", "records": [' >"$tmp/cut.json"
expect 2 "$u.*cut.json:.*not JSON" import "$tmp/cut.json" --db "$tmp/imp"
expect 2 "$u.*--stale goes with" lookup --m 5 --n 5 --k 5 --stale
expect 2 "$u.*--any-version goes with" --op gemm --any-version
expect 2 "$u.*is the database itself" merge "$tmp/imp" --db "$tmp/imp"
printf '{"format":"something-else","records":[]}' >"$tmp/other.json"
expect 2 "$u.*not a dlbtune export" import "$tmp/other.json" --db "$tmp/imp"
printf '{"format":"dlbtune-export","records":[{"key":"v1|nope"}]}' >"$tmp/badrec.json"
expect 2 "$u.*record 1: no valid .key.; nothing was imported" import "$tmp/badrec.json" --db "$tmp/imp"
# impossible values in an import are refused, nothing imported, no "0 results added" before the error (issue 34)
data="$top_srcdir/tests/data/records.json"
sed '0,/"median_us": 16.736/s//"median_us": "fast"/' "$data" >"$tmp/fast.json"
expect 2 "$u.*record 1: .best.: median_us nan .* is not a time; nothing was imported" import "$tmp/fast.json" --db "$tmp/imp"
! grep -q "results added" "$tmp/err" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: import counts printed before its error"; }
sed '0,/"median_us": 16.736/s//"median_us": -1e308/' "$data" >"$tmp/neg.json"
expect 2 "$u.*record 1: .best.: median_us -1e\\+308 .* is not a time" import "$tmp/neg.json" --db "$tmp/imp"
sed 's/1760x16x1760/0x16x1760/g' "$data" >"$tmp/zero.json"
expect 2 "$u.*record 1: the key's shape .0x16x1760. is not a gemm shape" import "$tmp/zero.json" --db "$tmp/imp"
sed 's/1760x16x1760/99999999999x16x1760/g' "$data" >"$tmp/huge.json"
expect 2 "$u.*record 1: the key's shape .99999999999x16x1760. is not a gemm shape" import "$tmp/huge.json" --db "$tmp/imp"
[ ! -e "$tmp/imp/data.mdb" ] || [ "$("$bin" db stats --db "$tmp/imp" 2>&1 | grep -c 'results *[1-9]')" = 0 ] && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: a refused import stored results"; }
printf 'not a database' >"$tmp/afile"
expect 1 "$u.*is a file" db stats --db "$tmp/afile"
# a database that may be there but cannot be read is not "no database" (EACCES as another user; ENOTDIR here, as root)
expect 1 "$u.*cannot read database $tmp/afile/db: Not a directory" db stats --db "$tmp/afile/db"

"$bin" --help >"$tmp/out" 2>&1 && grep -q "Exit status" "$tmp/out" && grep -q -- "--suite" "$tmp/out" &&
	pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: --help"; }
# space needs no GPU: the rows in order, the last line the count left within the default limits; -v lists them
"$bin" space --op gemm >"$tmp/out" 2>"$tmp/err" && [ ! -s "$tmp/err" ] && grep -qE '^all combinations +1814400$' "$tmp/out" &&
	tail -n 1 "$tmp/out" | grep -qE '^candidates to compile +409$' &&
	pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: space --op gemm: $(tail -n 3 "$tmp/out") $(head -c 300 "$tmp/err")"; }
"$bin" space --op gemm -v >"$tmp/out" 2>&1 && [ "$(grep -c '^  BM=[0-9]* BN=' "$tmp/out")" = 409 ] &&
	pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: space -v does not list 409 configurations"; }
# space --arch: that target's limits. sm_90a's 227 KiB of opt-in shared memory leaves more fp16 candidates than
# the sm_80+ defaults (99 KiB), and sm_80 none of the wgmma ones
if echo "$built" | grep -qw fp16; then
	left() { tail -n 1 "$tmp/out" | awk '{print $NF}'; }
	"$bin" space --op gemm --prec fp16 >"$tmp/out" 2>&1 && n_any=$(left)
	"$bin" space --op gemm --prec fp16 --arch sm_90a >"$tmp/out" 2>&1 && n_90=$(left) &&
		grep -qE '^  opt-in shared memory per block +232448 bytes$' "$tmp/out" && grep -q '^device limits (sm_90a' "$tmp/out" &&
		[ "${n_90:-0}" -gt "${n_any:-0}" ] && pass=$((pass + 1)) ||
		{ fail=$((fail + 1)); echo "FAIL: space --arch sm_90a: $n_90 candidates, defaults $n_any"; }
	"$bin" space --op gemm --prec fp16 --arch sm_80 -v >"$tmp/out" 2>&1 && ! grep -q 'KIND=1' "$tmp/out" &&
		grep -qE '^wgmma only on sm_90a +[0-9]+ +\(-[1-9][0-9]*\)$' "$tmp/out" && pass=$((pass + 1)) ||
		{ fail=$((fail + 1)); echo "FAIL: space --arch sm_80 keeps wgmma candidates"; }
fi
"$bin" --version >"$tmp/out" 2>&1 && grep -q "^NVRTC" "$tmp/out" && grep -q "^cuBLAS " "$tmp/out" &&
	grep -q "^cuDNN" "$tmp/out" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: --version"; }

# Without a GPU: a clear cause and exit 3. With one, this part does not apply.
"$bin" devices >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 3 ]; then
	grep -qE "no CUDA driver|sees no GPU" "$tmp/err" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: devices message"; }
	expect 3 "no CUDA driver|sees no GPU" --op gemm --m 64 --n 64 --k 64
	expect 3 "no CUDA driver|sees no GPU" --op gemm
	expect 3 "no CUDA driver|sees no GPU" --op gemm --prec "$(echo $built | tr ' ' ,)" --m 35 --n 700 --k 2047
	# bad input is still reported as bad input first
	expect 2 "$u.*--m '0'" --op gemm --m 0 --n 1 --k 1
fi

# A signal in the first moments of `compile`, while the compiler process starts (issue 34: it was lost, or
# reported as "the compiler process did not start", exit 1): exit 130 within 3 s (143 when it came before
# dlbtune could install its handler), nothing left running. TERM: a shell without job control starts
# background commands with SIGINT ignored, which would hide the first moments from the test.
for d in 0.05 0.1 0.2 0.3; do
	"$bin" compile --op gemm --prec fp16 --arch sm_90a >/dev/null 2>"$tmp/err" &
	cpid=$!
	sleep $d
	kill -TERM $cpid
	t=0
	while kill -0 $cpid 2>/dev/null && [ $t -lt 30 ]; do sleep 0.1; t=$((t + 1)); done
	if kill -0 $cpid 2>/dev/null; then
		fail=$((fail + 1))
		echo "FAIL: compile still running 3 s after a TERM at $d s"
		for st in /proc/[0-9]*/stat; do
			[ "$(cut -d' ' -f4 "$st" 2>/dev/null)" = "$cpid" ] && kill -9 "$(cut -d' ' -f1 "$st")" 2>/dev/null
		done
		kill -9 $cpid 2>/dev/null
		wait $cpid
	else
		wait $cpid
		got=$?
		if [ $got = 130 ] || [ $got = 143 ]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "FAIL: compile with a TERM at $d s -> exit $got (want 130): $(tail -c 200 "$tmp/err")"
		fi
	fi
done

# Ctrl-C (or TERM) during `compile`: the compiler process is killed, exit 130 with the cause, at once, and no
# process is left behind. (The compile of the fp16 space takes minutes on this machine.)
"$bin" compile --op gemm --prec fp16 --arch sm_90a >"$tmp/out" 2>"$tmp/err" &
cpid=$!
child= # the compiler process: the child of $cpid (from /proc: no procps needed), waited for up to 30 s (a
t=0    # sanitizer build on a loaded machine took more than 2 s to start it)
while [ -z "$child" ] && [ $t -lt 300 ] && kill -0 $cpid 2>/dev/null; do
	for st in /proc/[0-9]*/stat; do
		[ "$(cut -d' ' -f4 "$st" 2>/dev/null)" = "$cpid" ] && child=$(cut -d' ' -f1 "$st") && break
	done
	[ -n "$child" ] || { sleep 0.1; t=$((t + 1)); }
done
sleep 0.5
kill -INT $cpid
t=0
while kill -0 $cpid 2>/dev/null && [ $t -lt 50 ]; do sleep 0.1; t=$((t + 1)); done
if kill -0 $cpid 2>/dev/null; then
	fail=$((fail + 1))
	echo "FAIL: compile still running 5 s after SIGINT"
	kill -9 $cpid $child 2>/dev/null
else
	wait $cpid
	got=$?
	# the compiler is gone: no such process, or a zombie its new parent has not reaped yet (within 2 s)
	gone() { st=$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) || return 0; [ -z "$st" ] || [ "$st" = Z ]; }
	t=0
	while [ -n "$child" ] && ! gone "$child" && [ $t -lt 20 ]; do sleep 0.1; t=$((t + 1)); done
	# under load the interrupt may come before compiling starts: "interrupted" without "while compiling"
	if [ $got = 130 ] && grep -q "interrupted" "$tmp/err" && [ -n "$child" ] && gone "$child"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: compile after SIGINT -> exit $got (want 130), compiler process '$child'," \
			"stderr: $(tail -c 300 "$tmp/err")"
		[ -n "$child" ] && kill -9 "$child" 2>/dev/null
	fi
fi

echo "cli_errors: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
