#!/bin/bash
# Device call 1 for models (issue 32), on a 4-GPU machine (--devices all): tests/gpu_model.sh, then `dlbtune
# model` on ResNet-50, VGG-16 and a BERT-base encoder layer (sequence 128) at batch 1, ResNet-101 at batch 1
# (its 24 unique layers are ResNet-50's: nothing to tune), ResNet-50 at batch 32; fp32 (NCHW, as the ONNX
# files are) and fp16 (--layout NHWC: channels-last, what the tensor cores and cuDNN's fp16 kernels want).
# Each model run tunes only what the database lacks; its table and bounds go to $OUT/<name>.txt.
. .gpu/env.sh
export top_builddir=. top_srcdir=.
exec > >(tee $OUT/log.txt) 2>&1
nvidia-smi --query-gpu=index,name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
t0=$(date +%s)
DLB_REQUIRE_GPU=1 timeout -k 5 150 ./tests/gpu_model.sh >$OUT/gpu_model.log 2>&1
echo "== gpu_model: exit $? in $(( $(date +%s) - t0 )) s"; grep -E "FAIL|passed|failed" $OUT/gpu_model.log | tail -4
m=tests/models D=/tmp/dbm
model() { # name, then the arguments
	local name=$1; shift
	local s=$(date +%s) left=$(( 585 - ($(date +%s) - t0) ))
	[ $left -lt 20 ] && { echo "== $name: no time left"; return; }
	timeout -s INT -k 10 $left ./dlbtune model "$@" --db $D --devices all --power-ms 0 -v >$OUT/$name.txt 2>$OUT/$name.err
	echo "== $name ($*): exit $? in $(( $(date +%s) - s )) s"
	grep -hE "^dlbtune: [0-9]+ of the|^All [0-9]+ layers|unique layers of|sequential lower bound|lower bounds|error" \
		$OUT/$name.err $OUT/$name.txt | cut -c1-260
}
model fp32_b1 $m/resnet50.onnx $m/vgg16.onnx $m/bert_block.onnx --batch 1 --prec fp32
model fp32_r101 $m/resnet50.onnx $m/resnet101.onnx --batch 1 --prec fp32
model fp16_b1 $m/resnet50.onnx $m/vgg16.onnx $m/bert_block.onnx --batch 1 --prec fp16 --layout NHWC
model fp16_r101 $m/resnet50.onnx $m/resnet101.onnx --batch 1 --prec fp16 --layout NHWC
model fp32_b32 $m/resnet50.onnx --batch 32 --prec fp32
model fp16_b32 $m/resnet50.onnx --batch 32 --prec fp16 --layout NHWC
./dlbtune export --format json --db $D 2>/dev/null | gzip >$OUT/models_export.json.gz
gzip -f $OUT/*.err
echo "== total $(( $(date +%s) - t0 )) s"
