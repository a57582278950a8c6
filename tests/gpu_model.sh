#!/bin/sh
# gpu_model: `dlbtune model` tunes a model's layers that the database lacks, and only those. resnet_tiny's 6
# layers into a fresh database (a short search: this checks the plumbing, not the kernels), then the model
# again: all 6 answered from the database, no kernel launched; then encoder_tiny with resnet_tiny: only the
# encoder's 5 layers are tuned (its conv layers and its Gemm answered from the database). Each run ends with the model's totals from what it tuned on this GPU.
# Exit 77 without a GPU.
top_builddir=${top_builddir:-.}
bin="$top_builddir/dlbtune"
m="${top_srcdir:-.}/tests/models"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
. "${top_srcdir:-.}/tests/lib.sh"
require_gpu gpu_model
quick="--budget 6 --min-search 0 --paired 4 --power-ms 0 -v"
run() { # name, then the arguments
	name=$1
	shift
	"$bin" model "$@" --batch 2 --db "$tmp/db" $quick >"$tmp/$name.out" 2>"$tmp/$name.err" ||
		{ echo "FAIL: $name: exit $?"; cat "$tmp/$name.err" "$tmp/$name.out"; fail=1; }
}
run first "$m/resnet_tiny.onnx"
grep -q "^dlbtune: 6 of the 6 layers are not in the database for .* fp32: tuning them$" "$tmp/first.err" ||
	{ echo "FAIL: first: not 6 layers to tune"; cat "$tmp/first.err"; fail=1; }
grep -q "sequential lower bound of these 6 layers (the other ops not counted): tuned [0-9.]* us, vendor default [0-9.]* us, vendor best [0-9.]* us" "$tmp/first.out" ||
	{ echo "FAIL: first: no totals of the 6 layers"; cat "$tmp/first.out"; fail=1; }
grep -q "resnet_tiny.onnx: lower bounds, sequential / parallel (critical path): tuned [0-9.]* / [0-9.]* us" "$tmp/first.out" ||
	{ echo "FAIL: first: no bounds"; fail=1; }
run again "$m/resnet_tiny.onnx"
grep -q "^All 6 layers with a problem are in the database for .* fp32: nothing to tune.$" "$tmp/again.out" ||
	{ echo "FAIL: again: tuned again"; cat "$tmp/again.out" "$tmp/again.err"; fail=1; }
grep -q "kernel launches" "$tmp/again.err" && { echo "FAIL: again: ran kernels"; fail=1; }
run two "$m/encoder_tiny.onnx" "$m/resnet_tiny.onnx"
grep -q "^dlbtune: 5 of the 11 layers are not in the database for .* fp32: tuning them$" "$tmp/two.err" ||
	{ echo "FAIL: two: not the encoder's 5 layers to tune"; cat "$tmp/two.err"; fail=1; }
grep -q "^5 of 5 problems answered from the database" "$tmp/two.err" && grep -q "^1 of 6 problems answered from the database" "$tmp/two.err" ||
	{ echo "FAIL: two: the resnet's layers were not answered from the database"; grep "answered" "$tmp/two.err"; fail=1; }
grep -q "sequential lower bound of these 11 layers" "$tmp/two.out" || { echo "FAIL: two: not 11 layers totalled"; fail=1; }
cat "$tmp/first.out" "$tmp/two.out"
echo "gpu_model: $([ $fail = 0 ] && echo passed || echo failed)"
exit $fail
