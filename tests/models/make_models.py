#!/usr/bin/python3
# make_models: the small networks tests/model_cmd.sh reads, made with Debian's python3-onnx (apt-get install
# python3-onnx). Weights are graph inputs with their shapes and no data (dlbtune model needs only shapes), so
# the files stay small; the batch is symbolic ("N") for --batch to set. Run from the repository root:
#   tests/models/make_models.py        # writes tests/models/resnet_tiny.onnx, encoder_tiny.onnx, gemm_fixture.onnx,
#                                      # and the full-size resnet50.onnx, resnet101.onnx, vgg16.onnx, bert_block.onnx
import onnx
from onnx import TensorProto, helper

F = TensorProto.FLOAT


def save(nodes, inputs, outputs, inits, name, opset=13):
    g = helper.make_graph(nodes, name, inputs, outputs, initializer=inits)
    m = helper.make_model(g, producer_name="dlbtune tests/models/make_models.py",
                          opset_imports=[helper.make_operatorsetid("", opset)])
    onnx.checker.check_model(m)
    onnx.save(m, "tests/models/%s.onnx" % name)


def resnet_tiny():
    """A stem, two residual blocks at 16 channels, a downsampling block to 32 (3x3 stride 2 and a 1x1 stride-2
    shortcut), global pooling and a classifier: 8 convolutions of 5 shapes and a Gemm, with a branch."""
    nodes, ins = [], [helper.make_tensor_value_info("x", F, ["N", 3, 32, 32])]

    def conv(x, y, cin, cout, k, stride, pad):
        w = y + "_w"
        ins.append(helper.make_tensor_value_info(w, F, [cout, cin, k, k]))
        nodes.append(helper.make_node("Conv", [x, w], [y], kernel_shape=[k, k], strides=[stride, stride],
                                      pads=[pad] * 4))
        return y

    def relu(x, y):
        nodes.append(helper.make_node("Relu", [x], [y]))
        return y

    h = relu(conv("x", "stem", 3, 16, 3, 1, 1), "stem_r")
    for b in range(2):
        a = relu(conv(h, "b%d_c1" % b, 16, 16, 3, 1, 1), "b%d_r1" % b)
        a = conv(a, "b%d_c2" % b, 16, 16, 3, 1, 1)
        nodes.append(helper.make_node("Add", [a, h], ["b%d_add" % b]))
        h = relu("b%d_add" % b, "b%d_out" % b)
    a = relu(conv(h, "d_c1", 16, 32, 3, 2, 1), "d_r1")
    a = conv(a, "d_c2", 32, 32, 3, 1, 1)
    s = conv(h, "d_short", 16, 32, 1, 2, 0)
    nodes.append(helper.make_node("Add", [a, s], ["d_add"]))
    h = relu("d_add", "d_out")
    nodes.append(helper.make_node("GlobalAveragePool", [h], ["pool"]))
    nodes.append(helper.make_node("Flatten", ["pool"], ["flat"], axis=1))
    ins.append(helper.make_tensor_value_info("fc_w", F, [10, 32]))
    ins.append(helper.make_tensor_value_info("fc_b", F, [10]))
    nodes.append(helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["logits"], transB=1))
    save(nodes, ins, [helper.make_tensor_value_info("logits", F, ["N", 10])], [], "resnet_tiny")


def encoder_tiny():
    """One transformer encoder block: sequence 128, hidden 64, 4 heads of 16, FFN 256. Q, K, V and the output
    projection are the same MatMul; the scores and the context are MatMuls batched on both sides."""
    S, H, NH, D, FF = 128, 64, 4, 16, 256
    nodes, ins = [], [helper.make_tensor_value_info("x", F, ["N", S, H])]
    inits = [helper.make_tensor("split_shape", TensorProto.INT64, [4], [0, S, NH, D]),
             helper.make_tensor("merge_shape", TensorProto.INT64, [3], [0, S, H])]

    def matmul(x, w, y, shape):
        ins.append(helper.make_tensor_value_info(w, F, shape))
        nodes.append(helper.make_node("MatMul", [x, w], [y]))
        return y

    heads = {}
    for t in "qkv":
        p = matmul("x", "w" + t, t, [H, H])
        nodes.append(helper.make_node("Reshape", [p, "split_shape"], [t + "_4d"]))
        perm = [0, 2, 3, 1] if t == "k" else [0, 2, 1, 3]  # K transposed for the scores
        nodes.append(helper.make_node("Transpose", [t + "_4d"], [t + "_h"], perm=perm))
        heads[t] = t + "_h"
    nodes.append(helper.make_node("MatMul", [heads["q"], heads["k"]], ["scores"]))
    nodes.append(helper.make_node("Softmax", ["scores"], ["probs"], axis=-1))
    nodes.append(helper.make_node("MatMul", ["probs", heads["v"]], ["ctx_h"]))
    nodes.append(helper.make_node("Transpose", ["ctx_h"], ["ctx_t"], perm=[0, 2, 1, 3]))
    nodes.append(helper.make_node("Reshape", ["ctx_t", "merge_shape"], ["ctx"]))
    o = matmul("ctx", "wo", "attn", [H, H])
    nodes.append(helper.make_node("Add", [o, "x"], ["res1"]))
    f = matmul("res1", "w1", "ff1", [H, FF])
    nodes.append(helper.make_node("Relu", [f], ["ff1_r"]))
    f = matmul("ff1_r", "w2", "ff2", [FF, H])
    nodes.append(helper.make_node("Add", [f, "res1"], ["out"]))
    save(nodes, ins, [helper.make_tensor_value_info("out", F, ["N", S, H])], inits, "encoder_tiny")


def gemm_fixture():
    """Gemms that are tests/data/records.json's H200 problems (cuBLAS's column-major 1760x16x1760 NN, twice,
    and 2048x16x2048 TN) and a MatMul the database does not hold: for the totals from a database."""
    ins = [helper.make_tensor_value_info(n, F, s) for n, s in
           [("x1", [16, 1760]), ("w1", [1760, 1760]), ("x2", [16, 2048]), ("w2", [2048, 2048]), ("x3", [16, 512]),
            ("w3", [512, 512])]]
    nodes = [helper.make_node("Gemm", ["x1", "w1"], ["y1"]), helper.make_node("Relu", ["y1"], ["r1"]),
             helper.make_node("Gemm", ["r1", "w1"], ["y1b"]),
             helper.make_node("Gemm", ["x2", "w2"], ["y2"], transB=1),
             helper.make_node("MatMul", ["x3", "w3"], ["y3"])]
    outs = [helper.make_tensor_value_info(n, F, s) for n, s in [("y1b", [16, 1760]), ("y2", [16, 2048]),
                                                                 ("y3", [16, 512])]]
    save(nodes, ins, outs, [], "gemm_fixture")


def resnet(name, blocks_per_stage):
    """torchvision's bottleneck ResNet v1.5 at 224x224: a 7x7 stride-2 stem and max pooling, four bottleneck stages
    of blocks_per_stage blocks (64, 128, 256, 512 wide, expanded 4 times; the stride on the 3x3, a 1x1 projection
    shortcut in each stage's first block), global pooling and a 2048 -> 1000 classifier. Every convolution has its
    BatchNormalization; there are 3 * sum(blocks_per_stage) + 5 of them, and with the Gemm the depth is
    3 * sum(blocks_per_stage) + 2: ResNet-50 is [3, 4, 6, 3] (53 convolutions), ResNet-101 [3, 4, 23, 3] (104)."""
    depth = 3 * sum(blocks_per_stage) + 2
    assert name == "resnet%d" % depth, (name, depth)
    nodes, ins = [], [helper.make_tensor_value_info("x", F, ["N", 3, 224, 224])]

    def conv_bn(x, y, cin, cout, k, stride, pad):
        w = y + "_w"
        ins.append(helper.make_tensor_value_info(w, F, [cout, cin, k, k]))
        nodes.append(helper.make_node("Conv", [x, w], [y], kernel_shape=[k, k], strides=[stride, stride],
                                      pads=[pad] * 4))
        bn = [y + "_bn_" + p for p in ("scale", "b", "mean", "var")]
        ins.extend(helper.make_tensor_value_info(t, F, [cout]) for t in bn)
        nodes.append(helper.make_node("BatchNormalization", [y] + bn, [y + "_bn"]))
        return y + "_bn"

    def relu(x, y):
        nodes.append(helper.make_node("Relu", [x], [y]))
        return y

    h = relu(conv_bn("x", "stem", 3, 64, 7, 2, 3), "stem_r")
    nodes.append(helper.make_node("MaxPool", [h], ["stem_pool"], kernel_shape=[3, 3], strides=[2, 2], pads=[1] * 4))
    h, cin = "stem_pool", 64
    for s, (blocks, width) in enumerate(zip(blocks_per_stage, [64, 128, 256, 512])):
        for b in range(blocks):
            p, stride, cout = "s%d_b%d" % (s + 1, b), 2 if s > 0 and b == 0 else 1, width * 4
            a = relu(conv_bn(h, p + "_c1", cin, width, 1, 1, 0), p + "_r1")
            a = relu(conv_bn(a, p + "_c2", width, width, 3, stride, 1), p + "_r2")
            a = conv_bn(a, p + "_c3", width, cout, 1, 1, 0)
            short = conv_bn(h, p + "_short", cin, cout, 1, stride, 0) if b == 0 else h
            nodes.append(helper.make_node("Add", [a, short], [p + "_add"]))
            h, cin = relu(p + "_add", p + "_out"), cout
    nodes.append(helper.make_node("GlobalAveragePool", [h], ["pool"]))
    nodes.append(helper.make_node("Flatten", ["pool"], ["flat"], axis=1))
    ins.append(helper.make_tensor_value_info("fc_w", F, [1000, 2048]))
    ins.append(helper.make_tensor_value_info("fc_b", F, [1000]))
    nodes.append(helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["logits"], transB=1))
    assert sum(n.op_type == "Conv" for n in nodes) == depth + 3
    save(nodes, ins, [helper.make_tensor_value_info("logits", F, ["N", 1000])], [], name)


def vgg16():
    """VGG-16 (configuration D) at 224x224: 13 3x3 convolutions with bias and Relu in five stages closed by 2x2
    max pooling, then 25088 -> 4096 -> 4096 -> 1000 fully connected with Relu between (no dropout)."""
    nodes, ins = [], [helper.make_tensor_value_info("x", F, ["N", 3, 224, 224])]
    h, cin, c, m = "x", 3, 0, 0
    for v in [64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"]:
        if v == "M":
            m += 1
            nodes.append(helper.make_node("MaxPool", [h], ["pool%d" % m], kernel_shape=[2, 2], strides=[2, 2]))
            h = "pool%d" % m
            continue
        c += 1
        y = "conv%d" % c
        ins.append(helper.make_tensor_value_info(y + "_w", F, [v, cin, 3, 3]))
        ins.append(helper.make_tensor_value_info(y + "_b", F, [v]))
        nodes.append(helper.make_node("Conv", [h, y + "_w", y + "_b"], [y], kernel_shape=[3, 3], pads=[1] * 4))
        nodes.append(helper.make_node("Relu", [y], [y + "_r"]))
        h, cin = y + "_r", v
    nodes.append(helper.make_node("Flatten", [h], ["flat"], axis=1))
    h = "flat"
    for i, (fin, fout) in enumerate([(25088, 4096), (4096, 4096), (4096, 1000)]):
        y = "fc%d" % (i + 1)
        ins.append(helper.make_tensor_value_info(y + "_w", F, [fout, fin]))
        ins.append(helper.make_tensor_value_info(y + "_b", F, [fout]))
        nodes.append(helper.make_node("Gemm", [h, y + "_w", y + "_b"], [y], transB=1))
        h = y
        if i < 2:
            nodes.append(helper.make_node("Relu", [y], [y + "_r"]))
            h = y + "_r"
    save(nodes, ins, [helper.make_tensor_value_info(h, F, ["N", 1000])], [], "vgg16")


def bert_block():
    """One BERT-base encoder layer at sequence 128: hidden 768, 12 heads of 64, FFN 3072. Q, K, V and the output
    projection are MatMuls with bias Adds; the scores are scaled by 1/8; each sublayer's residual Add goes into
    a LayerNormalization (opset 17). Gelu is written as x * 0.5 * (1 + Erf(x / sqrt 2)): opset 17 has no Gelu."""
    S, H, NH, D, FF = 128, 768, 12, 64, 3072
    nodes, ins = [], [helper.make_tensor_value_info("x", F, ["N", S, H])]
    inits = [helper.make_tensor("split_shape", TensorProto.INT64, [4], [0, S, NH, D]),
             helper.make_tensor("merge_shape", TensorProto.INT64, [3], [0, S, H]),
             helper.make_tensor("sqrt_d", F, [], [8.0]),
             helper.make_tensor("sqrt_2", F, [], [2.0 ** 0.5]),
             helper.make_tensor("one", F, [], [1.0]),
             helper.make_tensor("half", F, [], [0.5])]

    def linear(x, name, fin, fout):
        ins.append(helper.make_tensor_value_info(name + "_w", F, [fin, fout]))
        ins.append(helper.make_tensor_value_info(name + "_b", F, [fout]))
        nodes.append(helper.make_node("MatMul", [x, name + "_w"], [name + "_mm"]))
        nodes.append(helper.make_node("Add", [name + "_mm", name + "_b"], [name]))
        return name

    def layer_norm(x, y):
        ins.append(helper.make_tensor_value_info(y + "_scale", F, [H]))
        ins.append(helper.make_tensor_value_info(y + "_b", F, [H]))
        nodes.append(helper.make_node("LayerNormalization", [x, y + "_scale", y + "_b"], [y], axis=-1))
        return y

    heads = {}
    for t in "qkv":
        p = linear("x", t, H, H)
        nodes.append(helper.make_node("Reshape", [p, "split_shape"], [t + "_4d"]))
        perm = [0, 2, 3, 1] if t == "k" else [0, 2, 1, 3]  # K transposed for the scores
        nodes.append(helper.make_node("Transpose", [t + "_4d"], [t + "_h"], perm=perm))
        heads[t] = t + "_h"
    nodes.append(helper.make_node("MatMul", [heads["q"], heads["k"]], ["scores"]))
    nodes.append(helper.make_node("Div", ["scores", "sqrt_d"], ["scores_s"]))
    nodes.append(helper.make_node("Softmax", ["scores_s"], ["probs"], axis=-1))
    nodes.append(helper.make_node("MatMul", ["probs", heads["v"]], ["ctx_h"]))
    nodes.append(helper.make_node("Transpose", ["ctx_h"], ["ctx_t"], perm=[0, 2, 1, 3]))
    nodes.append(helper.make_node("Reshape", ["ctx_t", "merge_shape"], ["ctx"]))
    o = linear("ctx", "attn", H, H)
    nodes.append(helper.make_node("Add", [o, "x"], ["res1"]))
    h = layer_norm("res1", "ln1")
    f = linear(h, "ff1", H, FF)
    nodes.append(helper.make_node("Div", [f, "sqrt_2"], ["gelu_d"]))
    nodes.append(helper.make_node("Erf", ["gelu_d"], ["gelu_erf"]))
    nodes.append(helper.make_node("Add", ["gelu_erf", "one"], ["gelu_1p"]))
    nodes.append(helper.make_node("Mul", [f, "gelu_1p"], ["gelu_m"]))
    nodes.append(helper.make_node("Mul", ["gelu_m", "half"], ["gelu"]))
    f = linear("gelu", "ff2", FF, H)
    nodes.append(helper.make_node("Add", [f, h], ["res2"]))
    out = layer_norm("res2", "ln2")
    save(nodes, ins, [helper.make_tensor_value_info(out, F, ["N", S, H])], inits, "bert_block", opset=17)


resnet_tiny()
encoder_tiny()
gemm_fixture()
resnet("resnet50", [3, 4, 6, 3])
resnet("resnet101", [3, 4, 23, 3])
vgg16()
bert_block()
