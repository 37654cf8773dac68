# The smoke suite's cases: each one is a hand-written ONNX graph plus its float64 numpy reference.
"""Case definitions of the smoke suite.

Each builder takes the case's seeded numpy Generator, draws its initializers from it and returns a
Case. Initializers are multiples of 1/256 so that their decimal text in the model is exact and the
parsed float32 weights equal the ones the reference uses bit for bit. `compute` receives the inputs
and initializers in one dict (floats as float64 for goldens, float32 for the tolerance check) and
returns every graph output.
"""

import dataclasses
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

import reference_ops as ref

F32 = np.float32


@dataclasses.dataclass
class Case:
    name: str
    summary: str
    inputs: List[Tuple[str, str, Tuple[int, ...]]]  # (name, onnx dtype, shape) in model order
    outputs: List[Tuple[str, str, Tuple[int, ...]]]
    nodes: List[str]  # graph body, ONNX text format
    make_inputs: Callable[[np.random.Generator], Dict[str, np.ndarray]]
    compute: Callable[[Dict[str, np.ndarray]], Dict[str, np.ndarray]]
    tags: List[str]
    initializers: Dict[str, Tuple[str, np.ndarray]] = dataclasses.field(default_factory=dict)
    opset: int = 13
    num_sets: int = 1
    tolerance: Optional[Dict[str, float]] = None


def weights(rng, shape, low=-1.0, high=1.0):
    """Initializer values: uniform, rounded to multiples of 1/256 (exact in float32 and in text)."""
    # Adding 0.0 turns -0.0 into 0.0, which reads better in the model text.
    return (np.round(rng.uniform(low, high, shape) * 256.0) / 256.0 + 0.0).astype(F32)


def uniform(rng, shape, low=-1.0, high=1.0):
    return rng.uniform(low, high, shape).astype(F32)


def away_from_zero(rng, shape, low, high):
    """Values with |x| in [low, high] and random sign (divisors, Log and Sqrt arguments)."""
    sign = np.where(rng.random(shape) < 0.5, -1.0, 1.0)
    return (sign * rng.uniform(low, high, shape)).astype(F32)


def t(name, dtype, shape):
    return (name, dtype, tuple(shape))


def add_broadcast_row(rng):
    return Case(
        "add_broadcast_row", "Add with a row vector broadcast over a rank-3 tensor.",
        [t("A", "FLOAT", [2, 3, 4]), t("B", "FLOAT", [4])], [t("C", "FLOAT", [2, 3, 4])],
        ["C = Add(A, B)"],
        lambda r: {"A": uniform(r, (2, 3, 4)), "B": uniform(r, (4,))},
        lambda v: {"C": v["A"] + v["B"]},
        ["broadcast", "rank_mismatch", "multi_set"], num_sets=2)


def sub_scalar(rng):
    return Case(
        "sub_scalar", "Sub of a rank-0 (scalar) tensor from a matrix.",
        [t("A", "FLOAT", [3, 4]), t("S", "FLOAT", [])], [t("Y", "FLOAT", [3, 4])],
        ["Y = Sub(A, S)"],
        lambda r: {"A": uniform(r, (3, 4)), "S": np.asarray(uniform(r, ()))},
        lambda v: {"Y": v["A"] - v["S"]},
        ["broadcast", "scalar"])


def mul_column(rng):
    return Case(
        "mul_column", "Mul with a [3,1] column broadcast against a rank-3 tensor.",
        [t("A", "FLOAT", [2, 3, 4]), t("B", "FLOAT", [3, 1])], [t("Y", "FLOAT", [2, 3, 4])],
        ["Y = Mul(A, B)"],
        lambda r: {"A": uniform(r, (2, 3, 4)), "B": uniform(r, (3, 1), -2.0, 2.0)},
        lambda v: {"Y": v["A"] * v["B"]},
        ["broadcast", "rank_mismatch"])


def div_bidirectional(rng):
    return Case(
        "div_bidirectional", "Div where both operands broadcast: [2,1,4] / [3,1] -> [2,3,4].",
        [t("A", "FLOAT", [2, 1, 4]), t("B", "FLOAT", [3, 1])], [t("Y", "FLOAT", [2, 3, 4])],
        ["Y = Div(A, B)"],
        lambda r: {"A": uniform(r, (2, 1, 4), -2.0, 2.0),
                   "B": away_from_zero(r, (3, 1), 0.5, 2.0)},
        lambda v: {"Y": v["A"] / v["B"]},
        ["broadcast", "rank_mismatch"])


def activations(rng):
    return Case(
        "activations", "Relu, Sigmoid and Tanh of one input, three graph outputs.",
        [t("X", "FLOAT", [4, 5])],
        [t("Y_relu", "FLOAT", [4, 5]), t("Y_sigmoid", "FLOAT", [4, 5]),
         t("Y_tanh", "FLOAT", [4, 5])],
        ["Y_relu = Relu(X)", "Y_sigmoid = Sigmoid(X)", "Y_tanh = Tanh(X)"],
        lambda r: {"X": uniform(r, (4, 5), -4.0, 4.0)},
        lambda v: {"Y_relu": np.maximum(v["X"], 0.0), "Y_sigmoid": ref.sigmoid(v["X"]),
                   "Y_tanh": np.tanh(v["X"])},
        ["elementwise", "multi_output"])


def elementwise_math(rng):
    return Case(
        "elementwise_math", "Abs, Neg, Exp, and Log and Sqrt of Abs (an output that feeds nodes).",
        [t("X", "FLOAT", [4, 5])],
        [t("Y_abs", "FLOAT", [4, 5]), t("Y_neg", "FLOAT", [4, 5]), t("Y_exp", "FLOAT", [4, 5]),
         t("Y_log", "FLOAT", [4, 5]), t("Y_sqrt", "FLOAT", [4, 5])],
        ["Y_abs = Abs(X)", "Y_neg = Neg(X)", "Y_exp = Exp(X)", "Y_log = Log(Y_abs)",
         "Y_sqrt = Sqrt(Y_abs)"],
        lambda r: {"X": away_from_zero(r, (4, 5), 0.1, 3.0)},
        lambda v: {"Y_abs": np.abs(v["X"]), "Y_neg": -v["X"], "Y_exp": np.exp(v["X"]),
                   "Y_log": np.log(np.abs(v["X"])), "Y_sqrt": np.sqrt(np.abs(v["X"]))},
        ["elementwise", "multi_output"])


def matmul_batched(rng):
    return Case(
        "matmul_batched", "MatMul of a batch of matrices by one matrix (batch broadcast).",
        [t("A", "FLOAT", [2, 3, 4]), t("B", "FLOAT", [4, 5])], [t("Y", "FLOAT", [2, 3, 5])],
        ["Y = MatMul(A, B)"],
        lambda r: {"A": uniform(r, (2, 3, 4)), "B": uniform(r, (4, 5))},
        lambda v: {"Y": v["A"] @ v["B"]},
        ["linear", "broadcast"])


def gemm_attributes(rng):
    inits = {"W": ("FLOAT", weights(rng, (5, 4))), "C": ("FLOAT", weights(rng, (5,))),
             "W2": ("FLOAT", weights(rng, (4, 2)))}
    return Case(
        "gemm_attributes", "Gemm with alpha, beta, transB and a broadcast bias; Gemm with transA "
        "and no C.",
        [t("A", "FLOAT", [3, 4]), t("AT", "FLOAT", [4, 3])],
        [t("Y", "FLOAT", [3, 5]), t("Y2", "FLOAT", [3, 2])],
        ["Y = Gemm <alpha = 0.5, beta = 2.0, transB = 1> (A, W, C)",
         "Y2 = Gemm <transA = 1> (AT, W2)"],
        lambda r: {"A": uniform(r, (3, 4)), "AT": uniform(r, (4, 3))},
        lambda v: {"Y": ref.gemm(v["A"], v["W"], v["C"], alpha=0.5, beta=2.0, trans_b=1),
                   "Y2": ref.gemm(v["AT"], v["W2"], trans_a=1)},
        ["linear", "attributes", "optional_input"], initializers=inits)


def conv_pads_strides(rng):
    inits = {"W": ("FLOAT", weights(rng, (3, 2, 3, 3))), "B": ("FLOAT", weights(rng, (3,)))}
    return Case(
        "conv_pads_strides", "2-D Conv with bias, symmetric pads and strides 2.",
        [t("X", "FLOAT", [1, 2, 7, 7])], [t("Y", "FLOAT", [1, 3, 4, 4])],
        ["Y = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]> (X, W, B)"],
        lambda r: {"X": uniform(r, (1, 2, 7, 7))},
        lambda v: {"Y": ref.conv2d(v["X"], v["W"], v["B"], strides=(2, 2), pads=(1, 1, 1, 1))},
        ["conv"], initializers=inits)


def conv_group_dilations(rng):
    inits = {"W": ("FLOAT", weights(rng, (4, 2, 3, 3)))}
    return Case(
        "conv_group_dilations", "2-D Conv with group 2, dilations 2, asymmetric pads, no bias.",
        [t("X", "FLOAT", [1, 4, 8, 8])], [t("Y", "FLOAT", [1, 4, 6, 6])],
        ["Y = Conv <group = 2, dilations = [2, 2], pads = [0, 1, 2, 1]> (X, W)"],
        lambda r: {"X": uniform(r, (1, 4, 8, 8))},
        lambda v: {"Y": ref.conv2d(v["X"], v["W"], dilations=(2, 2), pads=(0, 1, 2, 1),
                                   group=2)},
        ["conv", "group"], initializers=inits)


def conv_auto_pad_same_upper(rng):
    inits = {"W": ("FLOAT", weights(rng, (3, 2, 2, 3))), "B": ("FLOAT", weights(rng, (3,)))}
    # Odd total padding in both dims, so SAME_UPPER and SAME_LOWER give different results.
    pads = ref.same_pads([5, 6], [2, 3], [2, 2], [1, 1], upper=True)
    return Case(
        "conv_auto_pad_same_upper", "2-D Conv with auto_pad SAME_UPPER, strides 2 and an odd "
        "total padding (the extra pad goes at the end).",
        [t("X", "FLOAT", [1, 2, 5, 6])], [t("Y", "FLOAT", [1, 3, 3, 3])],
        ['Y = Conv <auto_pad = "SAME_UPPER", strides = [2, 2]> (X, W, B)'],
        lambda r: {"X": uniform(r, (1, 2, 5, 6))},
        lambda v: {"Y": ref.conv2d(v["X"], v["W"], v["B"], strides=(2, 2), pads=pads)},
        ["conv", "auto_pad"], initializers=inits)


def maxpool_pads_strides(rng):
    return Case(
        "maxpool_pads_strides", "MaxPool 3x3, strides 2, pads 1 over mostly negative data (padding "
        "must never win the max).",
        [t("X", "FLOAT", [1, 2, 7, 7])], [t("Y", "FLOAT", [1, 2, 4, 4])],
        ["Y = MaxPool <kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]> (X)"],
        lambda r: {"X": uniform(r, (1, 2, 7, 7), -3.0, 0.5)},
        lambda v: {"Y": ref.max_pool2d(v["X"], (3, 3), (2, 2), (1, 1, 1, 1))},
        ["pool"])


def averagepool_count_include_pad(rng):
    return Case(
        "averagepool_count_include_pad", "AveragePool 3x3, strides 2, pads 1, with "
        "count_include_pad 0 (default) and 1.",
        [t("X", "FLOAT", [1, 2, 6, 6])],
        [t("Y_exclude", "FLOAT", [1, 2, 3, 3]), t("Y_include", "FLOAT", [1, 2, 3, 3])],
        ["Y_exclude = AveragePool <kernel_shape = [3, 3], pads = [1, 1, 1, 1], "
         "strides = [2, 2]> (X)",
         "Y_include = AveragePool <kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2], "
         "count_include_pad = 1> (X)"],
        lambda r: {"X": uniform(r, (1, 2, 6, 6), -1.0, 2.0)},
        lambda v: {"Y_exclude": ref.average_pool2d(v["X"], (3, 3), (2, 2), (1, 1, 1, 1), 0),
                   "Y_include": ref.average_pool2d(v["X"], (3, 3), (2, 2), (1, 1, 1, 1), 1)},
        ["pool", "multi_output"])


def global_average_pool(rng):
    return Case(
        "global_average_pool", "GlobalAveragePool over a batch of two.",
        [t("X", "FLOAT", [2, 3, 4, 5])], [t("Y", "FLOAT", [2, 3, 1, 1])],
        ["Y = GlobalAveragePool(X)"],
        lambda r: {"X": uniform(r, (2, 3, 4, 5), -1.0, 2.0)},
        lambda v: {"Y": ref.global_average_pool(v["X"])},
        ["pool"])


def batchnorm_inference(rng):
    inits = {"scale": ("FLOAT", weights(rng, (3,), 0.5, 1.5)),
             "bias": ("FLOAT", weights(rng, (3,))),
             "mean": ("FLOAT", weights(rng, (3,), -0.5, 0.5)),
             "var": ("FLOAT", weights(rng, (3,), 0.25, 2.0))}
    epsilon = float(F32(0.001))  # the attribute is a float; use exactly the value the model holds
    return Case(
        "batchnorm_inference", "BatchNormalization in inference mode with epsilon 0.001.",
        [t("X", "FLOAT", [2, 3, 4, 4])], [t("Y", "FLOAT", [2, 3, 4, 4])],
        ["Y = BatchNormalization <epsilon = 0.001> (X, scale, bias, mean, var)"],
        lambda r: {"X": uniform(r, (2, 3, 4, 4), -2.0, 2.0)},
        lambda v: {"Y": ref.batch_norm_inference(v["X"], v["scale"], v["bias"], v["mean"],
                                                 v["var"], epsilon)},
        ["normalization"], initializers=inits)


def softmax_axis1(rng):
    return Case(
        "softmax_axis1", "Softmax-13 with axis 1 of a rank-3 tensor: normalizes along dim 1 only.",
        [t("X", "FLOAT", [2, 3, 4])], [t("Y", "FLOAT", [2, 3, 4])],
        ["Y = Softmax <axis = 1> (X)"],
        lambda r: {"X": uniform(r, (2, 3, 4), -3.0, 3.0)},
        lambda v: {"Y": ref.softmax_13(v["X"], axis=1)},
        ["softmax"])


def softmax_opset11(rng):
    return Case(
        "softmax_opset11", "Softmax-11 with its default axis 1 of a rank-3 tensor: the input is "
        "coerced to 2-D [2,12], unlike Softmax-13.",
        [t("X", "FLOAT", [2, 3, 4])], [t("Y", "FLOAT", [2, 3, 4])],
        ["Y = Softmax(X)"],
        lambda r: {"X": uniform(r, (2, 3, 4), -3.0, 3.0)},
        lambda v: {"Y": ref.softmax_11(v["X"], axis=1)},
        ["softmax", "opset_semantics"], opset=11)


def reshape_transpose(rng):
    inits = {"shape": ("INT64", np.asarray([0, -1, 2], dtype=np.int64))}

    def compute(v):
        reshaped = v["X"].reshape(ref.reshape_target(v["X"].shape, [0, -1, 2]))
        return {"R": reshaped, "T": reshaped.transpose(2, 0, 1), "T_default": v["X"].transpose()}

    return Case(
        "reshape_transpose", "Reshape with 0 (copy dim) and -1 (inferred), then Transpose with a "
        "perm and with the default (reversed) perm.",
        [t("X", "FLOAT", [2, 3, 4])],
        [t("R", "FLOAT", [2, 6, 2]), t("T", "FLOAT", [2, 2, 6]),
         t("T_default", "FLOAT", [4, 3, 2])],
        ["R = Reshape(X, shape)", "T = Transpose <perm = [2, 0, 1]> (R)",
         "T_default = Transpose(X)"],
        lambda r: {"X": uniform(r, (2, 3, 4))},
        compute,
        ["shape", "multi_output"], initializers=inits)


def reshape_allowzero_opset14(rng):
    inits = {"shape_zero": ("INT64", np.asarray([0, 3], dtype=np.int64)),
             "shape_infer": ("INT64", np.asarray([3, -1, 2], dtype=np.int64))}
    return Case(
        "reshape_allowzero_opset14", "Reshape-14 with allowzero 1: a 0 in `shape` is a real zero "
        "dim (an empty [3,0] input becomes [0,3]), and -1 still infers.",
        [t("X_empty", "FLOAT", [3, 0]), t("X", "FLOAT", [2, 6])],
        [t("Y_empty", "FLOAT", [0, 3]), t("Y", "FLOAT", [3, 2, 2])],
        ["Y_empty = Reshape <allowzero = 1> (X_empty, shape_zero)",
         "Y = Reshape <allowzero = 1> (X, shape_infer)"],
        lambda r: {"X_empty": np.zeros((3, 0), dtype=F32), "X": uniform(r, (2, 6))},
        lambda v: {"Y_empty": v["X_empty"].reshape(
                       ref.reshape_target(v["X_empty"].shape, [0, 3], allowzero=1)),
                   "Y": v["X"].reshape(ref.reshape_target(v["X"].shape, [3, -1, 2], 1))},
        ["shape", "empty", "opset_semantics"], initializers=inits, opset=14)


def concat_axes(rng):
    return Case(
        "concat_axes", "Concat of three inputs along axis 1, and of one input twice along axis -1.",
        [t("A", "FLOAT", [2, 1, 3]), t("B", "FLOAT", [2, 2, 3]), t("C", "FLOAT", [2, 3, 3])],
        [t("Y", "FLOAT", [2, 6, 3]), t("Z", "FLOAT", [2, 1, 6])],
        ["Y = Concat <axis = 1> (A, B, C)", "Z = Concat <axis = -1> (A, A)"],
        lambda r: {"A": uniform(r, (2, 1, 3)), "B": uniform(r, (2, 2, 3)),
                   "C": uniform(r, (2, 3, 3))},
        lambda v: {"Y": np.concatenate([v["A"], v["B"], v["C"]], axis=1),
                   "Z": np.concatenate([v["A"], v["A"]], axis=-1)},
        ["shape", "multi_output"])


def flatten_identity(rng):
    return Case(
        "flatten_identity", "Flatten with axis 2 and with the default axis 1, and Identity.",
        [t("X", "FLOAT", [2, 3, 4, 5])],
        [t("F2", "FLOAT", [6, 20]), t("F1", "FLOAT", [2, 60]), t("I", "FLOAT", [2, 3, 4, 5])],
        ["F2 = Flatten <axis = 2> (X)", "F1 = Flatten(X)", "I = Identity(X)"],
        lambda r: {"X": uniform(r, (2, 3, 4, 5))},
        lambda v: {"F2": ref.flatten(v["X"], 2), "F1": ref.flatten(v["X"], 1), "I": v["X"]},
        ["shape", "multi_output"])


def constant_shape_cast(rng):
    k = weights(rng, (4,), -2.0, 2.0)
    k_text = ", ".join(repr(float(x)) for x in k)

    def compute(v):
        # Add's float32 result is rounded before Cast widens it, and the Cast makes that visible.
        y32 = (v["X"].astype(np.float64) + k.astype(np.float64)).astype(F32)
        return {"S": np.asarray(v["X"].shape, dtype=np.int64),
                "S_float": np.asarray(v["X"].shape, dtype=np.float64),
                "Y_double": y32.astype(np.float64),
                "N_int": v["N"].astype(np.int64)}

    return Case(
        "constant_shape_cast", "Shape, Cast int64->float, Constant plus Add then Cast "
        "float->double, and Cast of integral floats to int32.",
        [t("X", "FLOAT", [2, 3, 4]), t("N", "FLOAT", [5])],
        [t("S", "INT64", [3]), t("S_float", "FLOAT", [3]), t("Y_double", "DOUBLE", [2, 3, 4]),
         t("N_int", "INT32", [5])],
        ["S = Shape(X)", "S_float = Cast <to = 1> (S)",
         "K = Constant <value = float[4] {%s}> ()" % k_text, "Y = Add(X, K)",
         "Y_double = Cast <to = 11> (Y)", "N_int = Cast <to = 6> (N)"],
        lambda r: {"X": uniform(r, (2, 3, 4)),
                   "N": r.integers(-50, 51, (5,)).astype(F32)},
        compute,
        ["cast", "constant", "int_output", "multi_output"])


def gather_negative_indices(rng):
    inits = {"cols": ("INT64", np.asarray([-1, 0], dtype=np.int64))}

    def make_inputs(r):
        idx = r.integers(-5, 5, (2, 3)).astype(np.int64)
        idx[0, 0] = -1  # at least one negative index, whatever the draw
        return {"data": uniform(r, (5, 4)), "idx": idx}

    return Case(
        "gather_negative_indices", "Gather on axis 0 with an int64 index tensor holding negative "
        "indices, and on axis 1 with constant indices [-1, 0].",
        [t("data", "FLOAT", [5, 4]), t("idx", "INT64", [2, 3])],
        [t("G0", "FLOAT", [2, 3, 4]), t("G1", "FLOAT", [5, 2])],
        ["G0 = Gather <axis = 0> (data, idx)", "G1 = Gather <axis = 1> (data, cols)"],
        make_inputs,
        lambda v: {"G0": ref.gather(v["data"], v["idx"], 0),
                   "G1": ref.gather(v["data"], v["cols"], 1)},
        ["indexing", "int_input", "multi_output"], initializers=inits)


def _squeeze_unsqueeze(name, opset, nodes, inits, summary, tags):
    return Case(
        name, summary,
        [t("X", "FLOAT", [3, 1, 4, 1]), t("V", "FLOAT", [3, 4])],
        [t("S_axis", "FLOAT", [3, 4, 1]), t("S_all", "FLOAT", [3, 4]),
         t("U", "FLOAT", [1, 3, 4, 1])],
        nodes,
        lambda r: {"X": uniform(r, (3, 1, 4, 1)), "V": uniform(r, (3, 4))},
        lambda v: {"S_axis": ref.squeeze(v["X"], [1]), "S_all": ref.squeeze(v["X"]),
                   "U": ref.unsqueeze(v["V"], [0, -1])},
        tags, initializers=inits, opset=opset)


def squeeze_unsqueeze(rng):
    inits = {"squeeze_axes": ("INT64", np.asarray([1], dtype=np.int64)),
             "unsqueeze_axes": ("INT64", np.asarray([0, -1], dtype=np.int64))}
    return _squeeze_unsqueeze(
        "squeeze_unsqueeze", 13,
        ["S_axis = Squeeze(X, squeeze_axes)", "S_all = Squeeze(X)",
         "U = Unsqueeze(V, unsqueeze_axes)"],
        inits, "Squeeze-13/Unsqueeze-13 with axes as an input (one negative), and Squeeze with "
        "no axes.", ["shape", "multi_output"])


def squeeze_unsqueeze_opset11(rng):
    return _squeeze_unsqueeze(
        "squeeze_unsqueeze_opset11", 11,
        ["S_axis = Squeeze <axes = [1]> (X)", "S_all = Squeeze(X)",
         "U = Unsqueeze <axes = [0, -1]> (V)"],
        {}, "Squeeze-11/Unsqueeze-11 with axes as an attribute (one negative), and Squeeze with "
        "no axes.", ["shape", "multi_output", "opset_semantics"])


def cnn_small(rng):
    inits = {
        "W1": ("FLOAT", weights(rng, (8, 3, 3, 3), -0.5, 0.5)),
        "B1": ("FLOAT", weights(rng, (8,), -0.25, 0.25)),
        "bn_scale": ("FLOAT", weights(rng, (8,), 0.5, 1.5)),
        "bn_bias": ("FLOAT", weights(rng, (8,), -0.25, 0.25)),
        "bn_mean": ("FLOAT", weights(rng, (8,), -0.25, 0.25)),
        "bn_var": ("FLOAT", weights(rng, (8,), 0.5, 2.0)),
        "W2": ("FLOAT", weights(rng, (16, 8, 3, 3), -0.25, 0.25)),
        "B2": ("FLOAT", weights(rng, (16,), -0.25, 0.25)),
        "W3": ("FLOAT", weights(rng, (10, 16), -1.0, 1.0)),
        "B3": ("FLOAT", weights(rng, (10,), -0.5, 0.5)),
    }
    epsilon = float(F32(0.001))

    def compute(v):
        c1 = ref.conv2d(v["X"], v["W1"], v["B1"], pads=(1, 1, 1, 1))
        n1 = ref.batch_norm_inference(c1, v["bn_scale"], v["bn_bias"], v["bn_mean"], v["bn_var"],
                                      epsilon)
        p1 = ref.max_pool2d(np.maximum(n1, 0.0), (2, 2), (2, 2))
        c2 = ref.conv2d(p1, v["W2"], v["B2"], strides=(2, 2), pads=(1, 1, 1, 1))
        g = ref.global_average_pool(np.maximum(c2, 0.0))
        logits = ref.gemm(ref.flatten(g, 1), v["W3"], v["B3"], trans_b=1)
        return {"probs": ref.softmax_13(logits, axis=-1)}

    return Case(
        "cnn_small", "Small CNN end to end: Conv, BatchNormalization, Relu, MaxPool, Conv, Relu, "
        "GlobalAveragePool, Flatten, Gemm, Softmax.",
        [t("X", "FLOAT", [1, 3, 16, 16])], [t("probs", "FLOAT", [1, 10])],
        ["c1 = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (X, W1, B1)",
         "n1 = BatchNormalization <epsilon = 0.001> (c1, bn_scale, bn_bias, bn_mean, bn_var)",
         "r1 = Relu(n1)",
         "p1 = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (r1)",
         "c2 = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]> (p1, W2, B2)",
         "r2 = Relu(c2)",
         "g = GlobalAveragePool(r2)",
         "flat = Flatten(g)",
         "logits = Gemm <transB = 1> (flat, W3, B3)",
         "probs = Softmax(logits)"],
        lambda r: {"X": uniform(r, (1, 3, 16, 16), -1.0, 1.0)},
        compute,
        ["end_to_end", "multi_set"], initializers=inits, num_sets=2)


def mlp_small(rng):
    inits = {
        "W1": ("FLOAT", weights(rng, (8, 16), -0.5, 0.5)),
        "b1": ("FLOAT", weights(rng, (16,), -0.25, 0.25)),
        "W2": ("FLOAT", weights(rng, (8, 16), -0.5, 0.5)),
        "b2": ("FLOAT", weights(rng, (8,), -0.25, 0.25)),
        "W3": ("FLOAT", weights(rng, (8, 3), -1.0, 1.0)),
        "b3": ("FLOAT", weights(rng, (3,), -0.25, 0.25)),
    }

    def compute(v):
        h = np.maximum(v["X"] @ v["W1"] + v["b1"], 0.0)
        h2 = np.tanh(ref.gemm(h, v["W2"], v["b2"], trans_b=1))
        return {"Y": ref.sigmoid(ref.gemm(h2, v["W3"], v["b3"]))}

    return Case(
        "mlp_small", "Small MLP end to end: MatMul, Add, Relu, Gemm (transB), Tanh, Gemm, Sigmoid.",
        [t("X", "FLOAT", [4, 8])], [t("Y", "FLOAT", [4, 3])],
        ["h = MatMul(X, W1)", "a = Add(h, b1)", "r = Relu(a)",
         "g = Gemm <transB = 1> (r, W2, b2)", "t = Tanh(g)", "z = Gemm(t, W3, b3)",
         "Y = Sigmoid(z)"],
        lambda r: {"X": uniform(r, (4, 8), -2.0, 2.0)},
        compute,
        ["end_to_end", "multi_set"], initializers=inits, num_sets=2)


BUILDERS = [
    add_broadcast_row, sub_scalar, mul_column, div_bidirectional, activations, elementwise_math,
    matmul_batched, gemm_attributes, conv_pads_strides, conv_group_dilations,
    conv_auto_pad_same_upper, maxpool_pads_strides, averagepool_count_include_pad,
    global_average_pool, batchnorm_inference, softmax_axis1, softmax_opset11, reshape_transpose,
    reshape_allowzero_opset14, concat_axes, flatten_identity, constant_shape_cast,
    gather_negative_indices, squeeze_unsqueeze, squeeze_unsqueeze_opset11, cnn_small, mlp_small,
]
