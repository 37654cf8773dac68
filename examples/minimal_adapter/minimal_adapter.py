"""A minimal adapter (docs/adapter-protocol.md), standard-library Python: Relu, Sigmoid,
Tanh and Add (broadcasting) on float tensors, on one provider named CPU. A model with any other op
is declined at load with UNIMPLEMENTED, which a report shows as UNSUPPORTED.
MINIMAL_ADAPTER_BROKEN=1 makes Relu return its input unchanged (a wrong answer, for tests)."""
import itertools
import json
import math
import os
import struct
import sys

FLOAT = 1  # onnx.proto's TensorProto.DataType FLOAT
BROKEN = os.environ.get("MINIMAL_ADAPTER_BROKEN") == "1"
UNARY = {"Relu": lambda x: x if BROKEN else max(x, 0.0), "Tanh": math.tanh,
         "Sigmoid": lambda x: 1 / (1 + math.exp(-x)) if x > -700 else 0.0}


class Declined(Exception):
    code = "UNIMPLEMENTED"


def varint(buf, pos):
    value = shift = 0
    while True:
        byte, pos = buf[pos], pos + 1
        value, shift = value | (byte & 0x7F) << shift, shift + 7
        if byte < 0x80:
            return value, pos


def fields(buf):
    """A protobuf message's (field number, value) pairs: varints as ints, the rest as bytes."""
    pos, out = 0, []
    while pos < len(buf):
        key, pos = varint(buf, pos)
        if key & 7 == 0:
            value, pos = varint(buf, pos)
        else:
            size, pos = varint(buf, pos) if key & 7 == 2 else ({1: 8, 5: 4}[key & 7], pos)
            value, pos = buf[pos:pos + size], pos + size
        out.append((key >> 3, value))
    return out


def first(buf, number, default=b""):
    return next((v for n, v in fields(buf) if n == number), default)


def every(buf, number):
    return [v for n, v in fields(buf) if n == number]


def read_tensor(blob):
    """A TensorProto as (dims, floats), from raw_data or float_data."""
    if first(blob, 2, 0) != FLOAT:
        raise Declined("element type %d: this adapter computes float only" % first(blob, 2, 0))
    data = first(blob, 9, None) or b"".join(every(blob, 4))
    return every(blob, 1), list(struct.unpack("<%df" % (len(data) // 4), data))


def encode_varint(value):
    out = b""
    while value > 0x7F:
        out, value = out + bytes([value & 0x7F | 0x80]), value >> 7
    return out + bytes([value])


def write_tensor(dims, floats):
    raw = struct.pack("<%df" % len(floats), *floats)
    return (b"".join(b"\x08" + encode_varint(d) for d in dims) + b"\x10\x01" +
            b"\x4a" + encode_varint(len(raw)) + raw)  # dims, data_type, raw_data


def add(a, b):
    rank = max(len(a[0]), len(b[0]))
    da, db = ([1] * (rank - len(t[0])) + t[0] for t in (a, b))
    if any(x != y and 1 not in (x, y) for x, y in zip(da, db)):
        raise ValueError("Add: shapes %s and %s do not broadcast" % (a[0], b[0]))
    dims = [max(x, y) for x, y in zip(da, db)]

    def at(index, shape):  # the flat position of a broadcast index in a tensor of `shape`
        pos = 0
        for i, size in zip(index, shape):
            pos = pos * size + (i if size > 1 else 0)
        return pos
    return dims, [a[1][at(i, da)] + b[1][at(i, db)] for i in itertools.product(*map(range, dims))]


def value_info(buf):
    """A ValueInfoProto as the protocol's {name, kind, dtype, dims}; float tensors only."""
    name, tensor = first(buf, 1).decode(), first(first(buf, 2), 1)
    if first(tensor, 1, 0) != FLOAT:
        raise Declined("value '%s' is not a float tensor" % name)
    dims = [first(d, 1, None) if first(d, 2, None) is None else first(d, 2).decode()
            for d in every(first(tensor, 2), 1)]
    return {"name": name, "kind": "tensor", "dtype": FLOAT, "dims": dims}


class Adapter:
    def __init__(self):
        self.models = {}

    def hello(self, request, blobs):
        for key in request["options"]:
            raise ValueError("unknown runtime option '%s' (this adapter takes none)" % key)
        return {"protocol": 2, "name": "minimal", "version": "1", "ir": [3, 11],
                "opsets": {"": [7, 25]}, "providers": ["CPU"]}, []

    def claims(self, request, blobs):
        raise Declined("this adapter does not list its kernels")

    def load(self, request, blobs):
        with open(request["model_path"], "rb") as f:
            graph = first(f.read(), 7)  # ModelProto.graph
        nodes = [{"op": first(n, 4).decode(), "name": first(n, 3).decode(), "domain": first(n, 7),
                  "inputs": [x.decode() for x in every(n, 1)],
                  "outputs": [x.decode() for x in every(n, 2)]} for n in every(graph, 1)]
        for node in nodes:
            if node["domain"] not in (b"", b"ai.onnx") or node["op"] not in {"Add", *UNARY}:
                raise Declined("no kernel for %s" % node["op"])
        initializers = {first(t, 8).decode(): read_tensor(t) for t in every(graph, 5)}
        model = {"nodes": nodes, "initializers": initializers,
                 "inputs": [i for i in map(value_info, every(graph, 11))
                            if i["name"] not in initializers],
                 "outputs": [value_info(v) for v in every(graph, 12)]}
        model_id = len(self.models) + 1
        self.models[model_id] = model
        placements = [{"node": n["name"] or "%s_%d" % (n["op"], i), "op_type": n["op"],
                       "provider": "CPU"} for i, n in enumerate(nodes)]
        return {"model": model_id, "inputs": model["inputs"], "outputs": model["outputs"],
                "placements": placements}, []

    def run(self, request, blobs):
        model = self.models[request["model"]]
        values = dict(model["initializers"])
        values.update({f["name"]: read_tensor(blobs[f["blob"]]) for f in request["feeds"]})
        for node in model["nodes"]:
            args = [values[name] for name in node["inputs"]]
            values[node["outputs"][0]] = (add(*args) if node["op"] == "Add" else
                                          (args[0][0], [UNARY[node["op"]](x) for x in args[0][1]]))
        outputs = [{"name": o["name"], "kind": "tensor", "dtype": FLOAT, "blob": i}
                   for i, o in enumerate(model["outputs"])]
        return {"outputs": outputs}, [write_tensor(*values[o["name"]]) for o in model["outputs"]]

    def unload(self, request, blobs):
        self.models[request["model"]] = None  # ids are never reused
        return {}, []


def read_exactly(n):
    data = sys.stdin.buffer.read(n)
    if len(data) < n:
        sys.exit(0)  # stdin ended: there will be no more requests
    return data


def main():
    adapter = Adapter()
    handlers = {"hello": adapter.hello, "claims": adapter.claims, "load": adapter.load,
                "run": adapter.run, "unload": adapter.unload}
    while True:
        magic, header_size, blob_count = struct.unpack("<4sII", read_exactly(12))
        if magic != b"OGA1":
            sys.exit("minimal_adapter: not a protocol frame on stdin")
        request = json.loads(read_exactly(header_size))
        blobs = [read_exactly(struct.unpack("<Q", read_exactly(8))[0]) for _ in range(blob_count)]
        try:
            reply, out_blobs = handlers[request["op"]](request, blobs)
            reply["ok"] = True
        except Exception as error:  # one answer for every failure; Declined is UNIMPLEMENTED
            code = getattr(error, "code", "INVALID_ARGUMENT")
            reply, out_blobs = {"ok": False, "code": code, "message": str(error) or code}, []
        reply["id"] = request["id"]
        header = json.dumps(reply).encode()
        frame = [b"OGA1", struct.pack("<II", len(header), len(out_blobs)), header]
        for blob in out_blobs:
            frame += [struct.pack("<Q", len(blob)), blob]
        sys.stdout.buffer.write(b"".join(frame))
        sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
