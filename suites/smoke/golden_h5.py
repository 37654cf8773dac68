# Writes and reads back onnxgate golden files (format v1) with h5py for the smoke suite generator.
"""Writer (and reader, for --check) of golden file format v1, the onnxgate golden layout.

A golden holds root attributes (format, format_version, producer, model_sha256, opset_imports,
created, source) and /sets/<i>/{inputs,outputs}/<name> tensor datasets with name, index,
onnx_dtype, kind and (rank >= 1) shape attributes. Files are written to a temporary name beside
the target and renamed, so a killed run never leaves half a golden behind.
"""

import os

import h5py
import numpy as np

FORMAT = "onnxgate-golden"
FORMAT_VERSION = 1

# ONNX TensorProto.DataType name -> little-endian numpy dtype stored in HDF5.
HDF5_DTYPES = {
    "FLOAT": "<f4",
    "DOUBLE": "<f8",
    "INT32": "<i4",
    "INT64": "<i8",
}

_UTF8 = h5py.string_dtype("utf-8")


def encode_name(name):
    """Percent-encodes an ONNX value name into an HDF5 link name ('/', '%', leading '.')."""
    encoded = name.replace("%", "%25").replace("/", "%2F")
    if encoded.startswith("."):
        encoded = "%2E" + encoded[1:]
    return encoded


def _set_string(obj, key, value):
    # Scalar, variable-length, UTF-8: the only string attribute form the format allows.
    obj.attrs.create(key, data=value, dtype=_UTF8)


def _set_int64(obj, key, value):
    obj.attrs.create(key, data=np.int64(value), dtype="<i8")


def _write_tensor(group, name, index, onnx_dtype, array):
    data = np.asarray(array).astype(HDF5_DTYPES[onnx_dtype])
    dataset = group.create_dataset(encode_name(name), data=data, track_times=False)
    _set_string(dataset, "name", name)
    _set_int64(dataset, "index", index)
    _set_string(dataset, "onnx_dtype", onnx_dtype)
    _set_string(dataset, "kind", "tensor")
    if data.ndim >= 1:
        dataset.attrs.create("shape", data=np.asarray(data.shape, dtype="<i8"))


def write_golden(path, root_attrs, sets):
    """Writes a golden atomically.

    root_attrs: dict of the root string attributes (producer, model_sha256, opset_imports, created,
      source). sets: list of (inputs, outputs), each a list of (name, onnx_dtype, array) in model
      order (the position becomes the `index` attribute).
    """
    tmp = path + ".tmp"
    if os.path.exists(tmp):
        os.remove(tmp)
    with h5py.File(tmp, "w") as f:
        _set_string(f, "format", FORMAT)
        _set_int64(f, "format_version", FORMAT_VERSION)
        for key in ("producer", "model_sha256", "opset_imports", "created", "source"):
            _set_string(f, key, root_attrs[key])
        for set_index, (inputs, outputs) in enumerate(sets):
            base = f.create_group("sets/%d" % set_index)
            for kind, values in (("inputs", inputs), ("outputs", outputs)):
                group = base.create_group(kind)
                for index, (name, onnx_dtype, array) in enumerate(values):
                    _write_tensor(group, name, index, onnx_dtype, array)
    os.replace(tmp, path)


def read_golden(path):
    """Reads a golden back as (root_attrs, sets) in the shape write_golden takes, for --check."""

    def text(value):
        return value.decode("utf-8") if isinstance(value, bytes) else str(value)

    def read_values(group):
        values = []
        for link in group:
            dataset = group[link]
            values.append((int(dataset.attrs["index"]), text(dataset.attrs["name"]),
                           text(dataset.attrs["onnx_dtype"]), dataset[()]))
        values.sort(key=lambda v: v[0])
        assert [v[0] for v in values] == list(range(len(values))), "%s: index gaps" % group.name
        return [(name, dtype, np.asarray(array)) for _, name, dtype, array in values]

    with h5py.File(path, "r") as f:
        root = {key: text(value) for key, value in f.attrs.items() if key != "format_version"}
        root["format_version"] = int(f.attrs["format_version"])
        count = len(f["sets"])
        sets = [(read_values(f["sets/%d/inputs" % i]), read_values(f["sets/%d/outputs" % i]))
                for i in range(count)]
    return root, sets
