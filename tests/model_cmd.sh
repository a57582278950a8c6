#!/bin/sh
# model_cmd: `dlbtune model` on Debian's libonnx-testdata models (CPU only): a convolution and a Gemm listed as
# unique layers of the families that take them, with their shapes and attributes; the same layer in two files
# counted once with its count per file; ops no family takes named with their counts; a model whose node
# reads a tensor nothing makes, a truncated file, a directory, a missing file and no file at all refused
# with exit 2 and a reason.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
bin="$top_builddir/dlbtune"
d=${DLB_ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top_srcdir/tests/lib.sh"
[ -d "$d/node" ] || { echo "FAIL: $d not found (Debian: libonnx-testdata; ./bootstrap installs it)"; exit 1; }
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

conv="$d/pytorch-converted/test_Conv2d/model.onnx"
gemm="$d/node/test_gemm_transposeA/model.onnx"
"$bin" model "$conv" "$gemm" "$conv" >"$tmp/out" 2>"$tmp/err" && ok || bad "model: $(cat "$tmp/err")"
grep -q "^2 unique layers of 3 (same op, input shapes and attributes); count per model" "$tmp/out" && ok ||
	bad "the unique count: $(cat "$tmp/out")"
grep -q "^  conv  Conv       2  (1 0 1)  2x3x7x5, w 4x3x3x2, w 4; dilations 1,1; group 1; kernel_shape 3,2; pads 0,0,0,0; strides 1,1 -> 2x4x5x4$" "$tmp/out" &&
	ok || bad "the conv layer: $(grep Conv "$tmp/out")"
grep -q "^  gemm  Gemm       1  (0 1 0)  6x3, 6x4, 1x4; transA 1 -> 3x4$" "$tmp/out" && ok || bad "the gemm layer: $(grep Gemm "$tmp/out")"
grep -q "1 nodes, 1 of them layers dlbtune's families take; outputs' shapes inferred for 1 (batch as in the file; --batch N sets a symbolic one); 1 shapes the file records checked, 0 differ$" "$tmp/out" &&
	ok || bad "the per-file line: $(head -1 "$tmp/out")"
# each layer as its family's problem (ONNX's row-major Gemm as cuBLAS's column-major one: m = N, n = M, the
# transposes swapped; a MatMul batched on both sides one problem per batch), or why not; the suites they make
# load as suites
grep -A1 "^  conv  Conv       2" "$tmp/out" | grep -q "^        -> conv 5x7 c3 n2 k4 2x3 NCHW$" && ok || bad "the conv problem: $(cat "$tmp/out")"
grep -A1 "^  gemm  Gemm" "$tmp/out" | grep -q "^        -> gemm 4x3x6 NT$" && ok || bad "the gemm problem: $(cat "$tmp/out")"
"$bin" model "$d/node/test_matmul_4d/model.onnx" "$d/pytorch-converted/test_Conv2d_groups/model.onnx" "$conv" "$gemm" \
	--suite-out "$tmp/s" >"$tmp/out3" 2>&1 && ok || bad "model --suite-out: $(cat "$tmp/out3")"
grep -A1 "^  gemm  MatMul" "$tmp/out3" | grep -q "^        -> gemm 3x3x4 NN (x2 a node: one per batch)$" && ok || bad "the batched MatMul: $(cat "$tmp/out3")"
grep -A1 "group 2" "$tmp/out3" | grep -q "^        -> not tuned: grouped (group 2)$" && ok || bad "the grouped conv: $(cat "$tmp/out3")"
[ "$(cat "$tmp/s_conv.csv")" = "w,h,c,n,k,s,r,pad_w,pad_h,stride_w,stride_h,dil_w,dil_h,order
5,7,3,2,4,2,3,0,0,1,1,1,1,NCHW" ] && ok || bad "s_conv.csv: $(cat "$tmp/s_conv.csv")"
[ "$(cat "$tmp/s_gemm.csv")" = "m,n,k,a_t,b_t
4,3,6,N,T
3,3,4,N,N" ] && ok || bad "s_gemm.csv: $(cat "$tmp/s_gemm.csv")"
"$bin" --op gemm --suite "$tmp/s_gemm.csv" --dry-run 2>&1 | grep -q "^gemm fp32 3x3x4 NN" && ok || bad "the gemm suite does not load"
"$bin" --op conv --suite "$tmp/s_conv.csv" --dry-run 2>&1 | grep -q "^conv fp32 5x7 c3 n2 k4 2x3 NCHW" && ok || bad "the conv suite does not load"
"$bin" model "$d/pytorch-operator/test_operator_maxpool/model.onnx" "$d/node/test_relu/model.onnx" >"$tmp/out2" 2>&1 &&
	grep -q "^other ops (dlbtune does not tune them): MaxPool x1, Relu x1$" "$tmp/out2" && ok || bad "other ops: $(cat "$tmp/out2")"

# two small networks (tests/models/make_models.py: weights without data, a symbolic batch): a residual CNN whose
# two blocks repeat one convolution 4 times, and a transformer encoder block whose Q, K, V and output
# projections are one MatMul folded over the batch rows, with its attention products batched on both sides
m="$top_srcdir/tests/models"
"$bin" model "$m/resnet_tiny.onnx" "$m/encoder_tiny.onnx" --batch 8 --suite-out "$tmp/net" >"$tmp/net.out" 2>&1 && ok ||
	bad "model of the tiny networks: $(cat "$tmp/net.out")"
grep -q "^$m/resnet_tiny.onnx: 21 nodes, 9 of them layers dlbtune's families take; outputs' shapes inferred for 21 (batch 8); 1 shapes the file records checked, 0 differ$" "$tmp/net.out" &&
	grep -q "^$m/encoder_tiny.onnx: 20 nodes, 8 of them layers dlbtune's families take; outputs' shapes inferred for 20 (batch 8); 1 shapes the file records checked, 0 differ$" "$tmp/net.out" &&
	grep -q "^11 unique layers of 17 " "$tmp/net.out" && ok || bad "the tiny networks' summary: $(cat "$tmp/net.out")"
grep -A1 "^  conv  Conv       4  (4 0)" "$tmp/net.out" | grep -q "^        -> conv 32x32 c16 n8 k16 3x3 pad 1 NCHW$" &&
	grep -A1 "^  gemm  MatMul     4  (0 4)  8x128x64, 64x64 -> 8x128x64$" "$tmp/net.out" | grep -q "^        -> gemm 64x1024x64 NN$" &&
	grep -q "^        -> gemm 128x128x16 NN (x32 a node: one per batch)$" "$tmp/net.out" &&
	grep -q "^        -> conv 32x32 c16 n8 k32 1x1 stride 2 NCHW$" "$tmp/net.out" &&
	grep -q "^other ops (dlbtune does not tune them): Add x5, Flatten x1, GlobalAveragePool x1, Relu x8, Reshape x4, Softmax x1, Transpose x4$" "$tmp/net.out" &&
	ok || bad "the tiny networks' layers: $(cat "$tmp/net.out")"
[ "$(wc -l <"$tmp/net_conv.csv")" = 6 ] && [ "$(wc -l <"$tmp/net_gemm.csv")" = 7 ] && ok ||
	bad "the tiny networks' suites: $(cat "$tmp/net_conv.csv" "$tmp/net_gemm.csv")"
"$bin" model "$m/resnet_tiny.onnx" >"$tmp/nob.out" 2>&1 && grep -q "inferred for 0 (batch as in the file; --batch N sets a symbolic one)" "$tmp/nob.out" &&
	ok || bad "a symbolic batch without --batch: $(head -3 "$tmp/nob.out")"

# totals from a database (tests/data/records.json: the H200's 1760x16x1760 NN, newest driver, tuned 16.736 us,
# cublasSgemm 17.968, best cuBLASLt 16.608; 2048x16x2048 TN, 19.4, 33.2, 33.2): the fixture model calls the first
# twice and the second once, and a third problem the database lacks
"$bin" import "$top_srcdir/tests/data/records.json" --db "$tmp/db" >/dev/null 2>&1 || bad "import the records"
"$bin" model "$m/gemm_fixture.onnx" --db "$tmp/db" --dry-run --any-version --device H200 >"$tmp/db.out" 2>&1 && ok || bad "model --db: $(cat "$tmp/db.out")"
grep -q "^  gemm  1760x16x1760 NN                             2      16.74       17.97      16.61$" "$tmp/db.out" &&
	grep -q "^  gemm  2048x16x2048 TN                             1      19.40       33.20      33.20$" "$tmp/db.out" &&
	grep -q "sequential lower bound of these 2 layers (the other ops not counted): tuned 52.87 us, vendor default 69.14 us, vendor best 66.42 us; tuned 1.31x the default, 1.26x the best$" "$tmp/db.out" &&
	grep -q "^  1 of the 3 layers with a problem are not in the database for fp32 on NVIDIA H200" "$tmp/db.out" && ok ||
	bad "the totals from the database: $(cat "$tmp/db.out")"
# the model's bounds: the Relu between the two 1760 Gemms moves 2 x 16 x 1760 floats at the bandwidth measured
# by the 1760x16x1760 row's stream floor (its 12.6 MB in 6.144 us: 2053 GB/s); the chain Gemm, Relu, Gemm runs
# beside the 2048 Gemm, so the critical path is the chain (tuned 2 x 16.736 + 0.110), or the 2048 Gemm where it
# is longer (vendor default: 33.2 against 2 x 17.968 + 0.110)
grep -q "^  memory bandwidth for the other ops: 2053 GB/s, measured: the stream floor of gemm fp32 1760x16x1760$" "$tmp/db.out" &&
	grep -qF "gemm_fixture.onnx: lower bounds, sequential / parallel (critical path): tuned 52.98 / 33.58 us, vendor default 69.25 / 36.05 us, vendor best 66.53 / 33.33 us; the other ops by their bytes at 2053 GB/s: 0.11 us of the sequential; 1 nodes of unknown time counted as 0" "$tmp/db.out" &&
	ok || bad "the model's bounds: $(grep "lower bounds\|bandwidth" "$tmp/db.out")"
# without a stream floor (the fixture's marked failed), the H200 platform record's peak: 4917 GB/s (3201 MHz x
# 6144 bits, double data rate), labelled as such
sed '/"name": "stream floor"/{n;n;s/"ok": true/"ok": false/}' "$top_srcdir/tests/data/records.json" >"$tmp/nofloor.json"
"$bin" import "$tmp/nofloor.json" --db "$tmp/dbnf" >/dev/null 2>&1 &&
	"$bin" model "$m/gemm_fixture.onnx" --db "$tmp/dbnf" --dry-run --any-version --device H200 >"$tmp/nf.out" 2>&1 &&
	grep -q "^  memory bandwidth for the other ops: 4917 GB/s, the peak from the GPU's memory clock and bus (no stream floor here)$" "$tmp/nf.out" &&
	grep -qF "the other ops by their bytes at 4917 GB/s: 0.05 us of the sequential" "$tmp/nf.out" && ok ||
	bad "the peak bandwidth without a floor: $(grep "bandwidth\|lower bounds" "$tmp/nf.out")"
# the same as JSON: the database's answer, a layer with its problem and times, the bounds; no text around it
"$bin" model "$m/gemm_fixture.onnx" --db "$tmp/db" --dry-run --any-version --device H200 --json >"$tmp/db.json" 2>&1 && ok || bad "model --json: $(cat "$tmp/db.json")"
head -c 1 "$tmp/db.json" | grep -q "{" && tail -n 1 "$tmp/db.json" | grep -q "^}$" &&
	grep -q '^  "layers_found": 2,$' "$tmp/db.json" && grep -q '^  "gpu": "NVIDIA H200",$' "$tmp/db.json" &&
	grep -q '^   "problem": "1760x16x1760 NN",$' "$tmp/db.json" && grep -q '^   "vendor_default_us": 17.968,$' "$tmp/db.json" &&
	grep -q '^   "unknown_nodes": 1$' "$tmp/db.json" && grep -q '^   "why_not": null,$' "$tmp/db.json" && ok ||
	bad "model --json: $(head -c 1500 "$tmp/db.json")"
# the same as CSV: one row per layer, other op and model bound, every row as wide as the header
"$bin" model "$m/gemm_fixture.onnx" --db "$tmp/db" --dry-run --any-version --device H200 --csv >"$tmp/db.csv" 2>&1 &&
	grep -q '^layer,,gemm,Gemm,"1760x16x1760 NN",2,,1,16.736,17.968,16.608,,,,,""$' "$tmp/db.csv" &&
	grep -q '^other_op,,,Relu,,1,' "$tmp/db.csv" &&
	grep -q '^bound,".*gemm_fixture.onnx",,,,,,,52.9817,69.2457,66.5257,33.5817,36.0457,33.3257,0.109714,$' "$tmp/db.csv" &&
	[ "$(awk -F, '{ print NF }' "$tmp/db.csv" | sort -u)" = 16 ] && ok || bad "model --csv: $(cat "$tmp/db.csv")"
"$bin" model "$m/gemm_fixture.onnx" --db "$tmp/db" --dry-run >"$tmp/db2.out" 2>&1 && grep -q "^  3 of the 3 layers with a problem are not in the database for fp32:" "$tmp/db2.out" &&
	ok || bad "current results only (the fixture's are stale): $(cat "$tmp/db2.out")"
"$bin" model "$m/gemm_fixture.onnx" --db "$tmp/nodb" --dry-run >"$tmp/db3.out" 2>&1 && grep -q "^No database at $tmp/nodb: nothing tuned yet to total.$" "$tmp/db3.out" &&
	ok || bad "no database: $(cat "$tmp/db3.out")"
# without --dry-run, model tunes what the database lacks; on a machine without a GPU it says so and gives what
# the database holds (the GPU machine tunes for real: tests/gpu_model.sh)
"$bin" devices >/dev/null 2>&1
if [ $? = 3 ]; then
	"$bin" model "$m/gemm_fixture.onnx" --db "$tmp/db" --any-version >"$tmp/db4.out" 2>"$tmp/db4.err" &&
		grep -q "^dlbtune: no GPU to tune on (.*): nothing is tuned" "$tmp/db4.err" &&
		grep -q "^  1 of the 3 layers with a problem are not in the database for fp32 on NVIDIA H200" "$tmp/db4.out" &&
		ok || bad "no GPU to tune on: $(cat "$tmp/db4.err" "$tmp/db4.out")"
fi
# full-size networks (tests/models/make_models.py): ResNet-50 and ResNet-101 have the same 24 unique layers;
# VGG-16 12; a BERT-base encoder layer 5, its attention MatMuls one problem per batch and head
"$bin" model "$m/resnet50.onnx" "$m/resnet101.onnx" "$m/vgg16.onnx" "$m/bert_block.onnx" --batch 1 --dry-run \
	--layout NHWC >"$tmp/big.out" 2>&1 && grep -q "^41 unique layers of 183 (" "$tmp/big.out" &&
	grep -q "^  conv  Conv      29  (6 23 0 0)  1x256x14x14, 1024x256x1x1;" "$tmp/big.out" &&
	grep -q "^        -> conv 224x224 c3 n1 k64 7x7 pad 3 stride 2 NHWC$" "$tmp/big.out" &&
	grep -q "^        -> gemm 128x128x64 NN (x12 a node: one per batch)$" "$tmp/big.out" &&
	grep -q "resnet101.onnx: 345 nodes, 105 of them layers dlbtune's families take; outputs' shapes inferred for 345 (batch 1)" "$tmp/big.out" &&
	ok || bad "the full-size networks: $(head -60 "$tmp/big.out")"

refused() { # what, the message wanted, then the command
	what=$1 want=$2
	shift 2
	"$@" >"$tmp/o" 2>"$tmp/e"
	rc=$?
	[ $rc = 2 ] && grep -q "$want" "$tmp/e" && ok || bad "$what: exit $rc, $(cat "$tmp/e")"
}
head -c 150 "$conv" >"$tmp/trunc.onnx"
refused "a truncated model" "not an ONNX model" "$bin" model "$tmp/trunc.onnx"
refused "a directory" "not a file" "$bin" model "$tmp"
refused "a missing file" "cannot open" "$bin" model "$tmp/none.onnx"
refused "no file" "needs one or more ONNX files" "$bin" model
refused "--batch elsewhere" "go with model" "$bin" export --format csv --batch 4
refused "--suite-out elsewhere" "go with model" "$bin" export --format csv --suite-out x
refused "--batch 0" "batch" "$bin" model --batch 0 "$conv"
echo "model_cmd: $pass passed, $fail failed"
[ $fail = 0 ]
