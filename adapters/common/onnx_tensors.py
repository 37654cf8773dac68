"""ONNX tensors to and from numpy for the Python adapters: the element types numpy has natively,
a tensor feed's proto, and a numpy array as a TensorProto of a given ONNX element type."""

import numpy as np
import onnx
from onnx import numpy_helper

# Element types numpy has natively (the others need a runtime's own tensor type).
NUMPY_NATIVE = {
    onnx.TensorProto.FLOAT, onnx.TensorProto.UINT8, onnx.TensorProto.INT8,
    onnx.TensorProto.UINT16, onnx.TensorProto.INT16, onnx.TensorProto.INT32,
    onnx.TensorProto.INT64, onnx.TensorProto.STRING, onnx.TensorProto.BOOL,
    onnx.TensorProto.FLOAT16, onnx.TensorProto.DOUBLE, onnx.TensorProto.UINT32,
    onnx.TensorProto.UINT64, onnx.TensorProto.COMPLEX64, onnx.TensorProto.COMPLEX128,
}


def type_name(elem):
    """'FLOAT16' for onnx.TensorProto.FLOAT16; the number when ONNX does not know it."""
    try:
        return onnx.TensorProto.DataType.Name(elem)
    except ValueError:
        return str(elem)


def tensor_of_blob(blob):
    """The TensorProto a feed's blob holds."""
    proto = onnx.TensorProto()
    proto.ParseFromString(blob)
    return proto


def native_array(array, elem):
    """`array` as the numpy dtype of the native element type `elem` (unchanged when it is
    already of it, or when `elem` is 0, unknown)."""
    if elem == 0 or elem not in NUMPY_NATIVE:
        return np.asarray(array)
    dtype = onnx.helper.tensor_dtype_to_np_dtype(elem)
    array = np.asarray(array)
    return array if array.dtype == dtype else array.astype(dtype)


def native_tensor_proto(array, elem):
    """A TensorProto of the native element type `elem` holding `array`."""
    array = native_array(array, elem)
    if elem == onnx.TensorProto.STRING or array.dtype == object:
        return numpy_helper.from_array(array.astype(object))
    return numpy_helper.from_array(array)
