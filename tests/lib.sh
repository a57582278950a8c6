# lib.sh: what the shell tests share; sourced after they set bin (the dlbtune to test) and fail=0.

# refused LABEL WANTED-TEXT ARGS...: the command exits 2 with the text in its message, else fail=1.
refused() {
	label=$1 want=$2
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -ne 2 ] || ! printf '%s\n' "$out" | grep -q -- "$want"; then
		echo "FAIL: $label: exit $rc: $out"
		fail=1
	fi
}

# require_gpu NAME: go on where dlbtune sees a GPU; exit 77 (skip) where it sees none (99 with DLB_REQUIRE_GPU,
# on the GPU machine, where a skip would hide a failure), 99 where it cannot tell.
require_gpu() {
	"$bin" devices >/dev/null 2>&1
	case $? in
	0) ;;
	3) echo "$1: skipped: no GPU"; [ -n "$DLB_REQUIRE_GPU" ] && exit 99; exit 77 ;;
	*) echo "$1: dlbtune devices failed"; exit 99 ;;
	esac
}

# sample N: the --every stride for a whole-space compile check: N in `make check` (samples every kernel family,
# so the suite stays within CI's time on 2 cores), 1 with DLB_CHECK_FULL=1 (`make check-full`: every candidate).
sample() {
	if [ "${DLB_CHECK_FULL:-0}" = 1 ]; then echo 1; else echo "$1"; fi
}

# progress TEXT: a line on the terminal during `make check` (fd 9, AM_TESTS_FD_REDIRECT), so that a test that runs
# for minutes is not taken for a hang; nothing where fd 9 is not open (the test run by hand)
progress() {
	if { true >&9; } 2>/dev/null; then echo "  ... $*" >&9; fi
}
