"""Inputs of the differential cases: a node case's golden inputs read with h5py, and fresh inputs
of the same names, kinds, element types and shapes drawn from a seed.

Which values are drawn anew (the rule docs/architecture.md states, "Differential testing against
ONNX Runtime"):
- a floating-point tensor (float, double, float16, bfloat16) fed to a formal parameter whose type
  constraint is shared with an output (data, not a parameter such as Resize's scales) is drawn
  uniformly from [min, max] of the case's own values, so an op's domain (Log's positive inputs,
  Acos's [-1, 1]) is kept; a tensor with a NaN or an infinity, or whose values are all equal,
  is kept as the case has it (it tests those values, or is a constant);
- an integer tensor fed to such a formal whose constraint also allows a floating-point type
  (generic data, as Add's T) is drawn uniformly from the integers in [min, max], and zero is
  avoided when the case had none (a divisor stays a divisor);
- a bool tensor fed to a formal that takes bools only (Where's condition, And's inputs) is
  drawn with p = 0.5;
- everything else is kept: integer indices, axes, shapes, sizes and counts (formals typed
  tensor(int64) or constrained to integers only), strings, sequences, optionals, 8-, 4- and
  2-bit types.
"""

import h5py
import ml_dtypes
import numpy as np
import onnx
from onnx import numpy_helper

# onnx_dtype names of the goldens (golden/README.md) whose HDF5 data is stored as codes or
# unpacked values, to the numpy type that views them as ONNX Runtime and onnx's helpers expect.
_VIEWED = {
    "BFLOAT16": ml_dtypes.bfloat16,
    "FLOAT8E4M3FN": ml_dtypes.float8_e4m3fn,
    "FLOAT8E4M3FNUZ": ml_dtypes.float8_e4m3fnuz,
    "FLOAT8E5M2": ml_dtypes.float8_e5m2,
    "FLOAT8E5M2FNUZ": ml_dtypes.float8_e5m2fnuz,
    "FLOAT8E8M0": ml_dtypes.float8_e8m0fnu,
    "FLOAT4E2M1": ml_dtypes.float4_e2m1fn,
}
_CAST = {"INT4": ml_dtypes.int4, "UINT4": ml_dtypes.uint4, "INT2": ml_dtypes.int2,
         "UINT2": ml_dtypes.uint2, "BOOL": np.bool_}
_FLOATS = {"FLOAT", "DOUBLE", "FLOAT16", "BFLOAT16"}
_INTEGERS = {"INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64"}
_FLOAT_TYPE_STRS = {"tensor(float)", "tensor(double)", "tensor(float16)", "tensor(bfloat16)"}


class GoldenValue:
    """One golden input: kind 'tensor' (array), 'sequence' (list of arrays) or 'optional'
    (None, an array or a list), with its onnx_dtype name."""

    def __init__(self, name, kind, dtype, value, inner_kind="tensor"):
        self.name, self.kind, self.dtype, self.value = name, kind, dtype, value
        self.inner_kind = inner_kind  # of an optional: 'tensor' or 'sequence'


def _tensor(dataset):
    dtype = dataset.attrs["onnx_dtype"]
    dtype = dtype.decode() if isinstance(dtype, bytes) else str(dtype)
    if "shape" in dataset.attrs:
        shape = tuple(int(d) for d in dataset.attrs["shape"])
    else:
        shape = ()
    if dtype == "STRING":
        data = np.array(dataset.asstr()[()], dtype=object).reshape(shape)
    elif dtype in ("COMPLEX64", "COMPLEX128"):
        raw = dataset[()]
        data = (raw["r"] + 1j * raw["i"]).astype(np.complex64 if dtype == "COMPLEX64"
                                                 else np.complex128).reshape(shape)
    else:
        data = np.asarray(dataset[()]).reshape(shape)
        if dtype in _VIEWED:
            data = data.view(_VIEWED[dtype])
        elif dtype in _CAST:
            data = data.astype(_CAST[dtype])
    return dtype, data


def _text(attrs, key):
    value = attrs[key]
    return value.decode() if isinstance(value, bytes) else str(value)


def _value(name, node):
    kind = _text(node.attrs, "kind")
    if kind == "tensor":
        dtype, data = _tensor(node)
        return GoldenValue(name, kind, dtype, data)
    dtype = _text(node.attrs, "onnx_dtype")
    if kind == "sequence":
        items = [_tensor(node[k])[1] for k in sorted(node.keys(), key=int)]
        return GoldenValue(name, kind, dtype, items)
    inner_kind = _text(node.attrs, "inner_kind")
    if int(node.attrs["has_value"]) == 0:
        return GoldenValue(name, kind, dtype, None, inner_kind)
    inner = _value(name, node["value"])
    return GoldenValue(name, kind, dtype, inner.value, inner_kind)


def read_golden_inputs(path):
    """The inputs of data set 0 of a golden, by name: {name: GoldenValue}."""
    inputs = {}
    with h5py.File(path, "r") as f:
        group = f["sets"]["0"]["inputs"]
        for key in group:
            node = group[key]
            name = _text(node.attrs, "name")
            inputs[name] = _value(name, node)
    return inputs


def _draw_float(rng, array):
    wide = array.astype(np.float64)
    if wide.size < 2 or not np.all(np.isfinite(wide)):
        return array
    lo, hi = float(wide.min()), float(wide.max())
    if lo == hi:
        return array
    return rng.uniform(lo, hi, size=array.shape).astype(array.dtype)


def _draw_integer(rng, array):
    if array.size < 2:
        return array
    lo, hi = int(array.min()), int(array.max())
    if lo == hi:
        return array
    drawn = rng.integers(lo, hi, size=array.shape, endpoint=True, dtype=np.int64)
    if not np.any(array == 0):
        drawn[drawn == 0] = hi if hi != 0 else lo
    return drawn.astype(array.dtype)


def draw_value(rng, golden, role):
    """A fresh value for one golden input; role is 'data' (a formal whose constraint an output
    shares), 'generic' (data whose constraint also allows floats), 'bool' (a formal of bools
    only) or 'keep'."""
    if golden.kind != "tensor" or role == "keep":
        return golden.value
    array = golden.value
    if golden.dtype == "BOOL":
        return rng.random(array.shape) < 0.5 if role == "bool" else array
    if golden.dtype in _FLOATS and role in ("data", "generic"):
        return _draw_float(rng, array)
    if golden.dtype in _INTEGERS and role == "generic":
        return _draw_integer(rng, array)
    return array


def input_roles(schema, node, graph_input_names):
    """{graph input name: role} for the graph inputs `node` reads, from its schema's formals."""
    if schema is None:
        return {}
    output_types = {o.type_str for o in schema.outputs}
    allowed = {c.type_param_str: set(c.allowed_type_strs) for c in schema.type_constraints}
    roles = {}
    for position, name in enumerate(node.input):
        if name not in graph_input_names or name in roles or not schema.inputs:
            continue
        formal = schema.inputs[min(position, len(schema.inputs) - 1)]
        type_str = formal.type_str
        role = "keep"
        if type_str == "tensor(bool)" or allowed.get(type_str) == {"tensor(bool)"}:
            role = "bool"
        elif type_str in output_types and type_str in allowed:
            role = "generic" if allowed[type_str] & _FLOAT_TYPE_STRS else "data"
        roles[name] = role
    return roles


def to_proto(name, golden, value):
    """The TensorProto, SequenceProto or OptionalProto of a value, named `name`."""
    if golden.kind == "tensor":
        return numpy_helper.from_array(np.asarray(value), name)
    if golden.kind == "sequence":
        proto = onnx.SequenceProto(name=name, elem_type=onnx.SequenceProto.TENSOR)
        proto.tensor_values.extend(numpy_helper.from_array(np.asarray(v)) for v in value)
        return proto
    proto = onnx.OptionalProto(name=name)
    if golden.inner_kind == "sequence":
        proto.elem_type = onnx.OptionalProto.SEQUENCE
        if value is not None:
            proto.sequence_value.elem_type = onnx.SequenceProto.TENSOR
            proto.sequence_value.tensor_values.extend(
                numpy_helper.from_array(np.asarray(v)) for v in value)
    else:
        proto.elem_type = onnx.OptionalProto.TENSOR
        if value is not None:
            proto.tensor_value.CopyFrom(numpy_helper.from_array(np.asarray(value)))
    return proto


def kept_constants(goldens, roles):
    """{name: TensorProto} of the tensor inputs whose values every case keeps (role 'keep'),
    for shape inference to see as constants."""
    return {name: to_proto(name, g, g.value) for name, g in goldens.items()
            if g.kind == "tensor" and roles.get(name, "keep") == "keep"}
