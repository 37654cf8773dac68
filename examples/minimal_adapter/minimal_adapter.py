"""A minimal onnxgate adapter (docs/adapter-protocol.md), standard library only: Relu, Sigmoid,
Tanh and Add (with broadcasting) on float tensors, on one provider named CPU. Every other op is
declined at load with UNIMPLEMENTED, which a report shows as UNSUPPORTED.
MINIMAL_ADAPTER_BROKEN=1 makes Relu return its input unchanged (a wrong answer, for tests)."""
import itertools
import json
import math
import os
import struct
import sys

FLOAT = 1  # TensorProto.DataType FLOAT
RELU = (lambda x: x) if os.environ.get("MINIMAL_ADAPTER_BROKEN") == "1" else (lambda x: max(x, 0.0))
UNARY = {"Relu": RELU, "Sigmoid": lambda x: 1 / (1 + math.exp(-x)) if x > -700 else 0.0,
         "Tanh": math.tanh}


class Declined(Exception):
    code = "UNIMPLEMENTED"


def varint(buf, pos):
    value = shift = 0
    while True:
        byte, pos = buf[pos], pos + 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, pos


def fields(buf):
    """A protobuf message's (field number, value) pairs: varints as ints, the rest as bytes."""
    pos, out = 0, []
    while pos < len(buf):
        key, pos = varint(buf, pos)
        wire = key & 7
        if wire == 0:
            value, pos = varint(buf, pos)
        elif wire == 2:
            size, pos = varint(buf, pos)
            value, pos = buf[pos:pos + size], pos + size
        else:
            size = {1: 8, 5: 4}[wire]
            value, pos = buf[pos:pos + size], pos + size
        out.append((key >> 3, value))
    return out


def first(buf, number, default=b""):
    return next((v for n, v in fields(buf) if n == number), default)


def read_tensor(blob):
    """A TensorProto as (dims, floats)."""
    dims, floats, raw, dtype = [], [], None, 0
    for number, value in fields(blob):
        if number == 1:  # dims: one varint, or packed
            dims += [value] if isinstance(value, int) else varints(value)
        elif number == 2:
            dtype = value
        elif number == 4:  # float_data, packed
            floats += struct.unpack("<%df" % (len(value) // 4), value)
        elif number == 9:
            raw = value
    if dtype != FLOAT:
        raise Declined("element type %d: this adapter computes float only" % dtype)
    if raw is not None:
        floats = list(struct.unpack("<%df" % (len(raw) // 4), raw))
    return dims, floats


def varints(buf):
    out, pos = [], 0
    while pos < len(buf):
        value, pos = varint(buf, pos)
        out.append(value)
    return out


def write_tensor(dims, floats):
    out = b"".join(b"\x08" + bytes(encode_varint(d)) for d in dims) + b"\x10\x01"
    raw = struct.pack("<%df" % len(floats), *floats)
    return out + b"\x4a" + bytes(encode_varint(len(raw))) + raw


def encode_varint(value):
    while True:
        byte, value = value & 0x7F, value >> 7
        yield byte | (0x80 if value else 0)
        if not value:
            return


def add(a, b):
    """numpy-style broadcasting Add of two (dims, floats) tensors."""
    rank = max(len(a[0]), len(b[0]))
    da, db = [[1] * (rank - len(t[0])) + list(t[0]) for t in (a, b)]
    if any(x != y and 1 not in (x, y) for x, y in zip(da, db)):
        raise ValueError("Add: shapes %s and %s do not broadcast" % (a[0], b[0]))
    dims = [max(x, y) for x, y in zip(da, db)]

    def flat(index, shape):
        pos = 0
        for i, size in zip(index, shape):
            pos = pos * size + (i if size > 1 else 0)
        return pos
    return dims, [a[1][flat(i, da)] + b[1][flat(i, db)]
                  for i in itertools.product(*map(range, dims))]


def value_info(buf):
    tensor = first(first(buf, 2), 1)  # ValueInfoProto.type.tensor_type
    if first(tensor, 1, 0) != FLOAT:
        raise Declined("value '%s' is not a float tensor" % first(buf, 1).decode())
    dims = [first(d, 1, None) if first(d, 2, None) is None else first(d, 2).decode()
            for n, d in fields(first(tensor, 2)) if n == 1]
    return {"name": first(buf, 1).decode(), "kind": "tensor", "dtype": FLOAT, "dims": dims}


class Adapter:
    def __init__(self):
        self.models, self.next_model = {}, 1

    def hello(self, request, blobs):
        for key in request.get("options", {}):
            raise ValueError("unknown runtime option '%s' (this adapter takes none)" % key)
        return {"protocol": 2, "name": "minimal", "version": "1", "ir": [3, 11],
                "opsets": {"": [7, 25]}, "providers": ["CPU"]}, []

    def claims(self, request, blobs):
        raise Declined("this adapter does not list its kernels")

    def load(self, request, blobs):
        with open(request["model_path"], "rb") as f:
            graph = first(f.read(), 7)  # ModelProto.graph
        parts = fields(graph)
        nodes = [dict(fields(v), inputs=[x.decode() for n, x in fields(v) if n == 1],
                      outputs=[x.decode() for n, x in fields(v) if n == 2])
                 for n, v in parts if n == 1]
        for node in nodes:
            op = node.get(4, b"").decode()
            if node.get(7, b"") not in (b"", b"ai.onnx") or (op not in UNARY and op != "Add"):
                raise Declined("no kernel for %s" % op)
        initializers = {first(v, 8).decode(): read_tensor(v) for n, v in parts if n == 5}
        inputs = [value_info(v) for n, v in parts if n == 11]
        model = {"nodes": nodes, "initializers": initializers,
                 "inputs": [i for i in inputs if i["name"] not in initializers],
                 "outputs": [value_info(v) for n, v in parts if n == 12]}
        self.models[self.next_model] = model
        self.next_model += 1
        placements = [{"node": n.get(3, b"").decode(), "op_type": n[4].decode(),
                       "provider": "CPU"} for n in nodes]
        return {"model": self.next_model - 1, "inputs": model["inputs"],
                "outputs": model["outputs"], "placements": placements}, []

    def run(self, request, blobs):
        model = self.models[request["model"]]
        values = dict(model["initializers"])
        values.update({f["name"]: read_tensor(blobs[f["blob"]]) for f in request["feeds"]})
        for node in model["nodes"]:
            op, args = node[4].decode(), [values[name] for name in node["inputs"]]
            if op == "Add":
                values[node["outputs"][0]] = add(*args)
            else:
                values[node["outputs"][0]] = args[0][0], [UNARY[op](x) for x in args[0][1]]
        outputs = [{"name": o["name"], "kind": "tensor", "dtype": FLOAT, "blob": i}
                   for i, o in enumerate(model["outputs"])]
        return {"outputs": outputs}, [write_tensor(*values[o["name"]]) for o in model["outputs"]]

    def unload(self, request, blobs):
        self.models.pop(request["model"], None)
        return {}, []


def read_exactly(n):
    data = sys.stdin.buffer.read(n)
    if len(data) < n:
        sys.exit(0)  # stdin ended: onnxgate is done with this adapter
    return data


def main():
    adapter = Adapter()
    while True:
        magic, header_size, blob_count = struct.unpack("<4sII", read_exactly(12))
        request = json.loads(read_exactly(header_size))
        blobs = [read_exactly(struct.unpack("<Q", read_exactly(8))[0]) for _ in range(blob_count)]
        try:
            reply, out_blobs = getattr(adapter, request["op"])(request, blobs)
            reply["ok"] = True
        except Exception as error:
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
