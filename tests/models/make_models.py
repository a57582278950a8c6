#!/usr/bin/python3
# make_models: the small networks tests/model_cmd.sh reads, made with Debian's python3-onnx (apt-get install
# python3-onnx). Weights are graph inputs with their shapes and no data (dlbtune model needs only shapes), so
# the files stay small; the batch is symbolic ("N") for --batch to set. Run from the repository root:
#   tests/models/make_models.py        # writes tests/models/resnet_tiny.onnx, encoder_tiny.onnx, gemm_fixture.onnx
import onnx
from onnx import TensorProto, helper

F = TensorProto.FLOAT


def save(nodes, inputs, outputs, inits, name):
    g = helper.make_graph(nodes, name, inputs, outputs, initializer=inits)
    m = helper.make_model(g, producer_name="dlbtune tests/models/make_models.py",
                          opset_imports=[helper.make_operatorsetid("", 13)])
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


resnet_tiny()
encoder_tiny()
gemm_fixture()
