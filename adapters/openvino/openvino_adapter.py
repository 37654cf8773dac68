"""onnxgate's adapter for OpenVINO's own runtime reading ONNX: drives the openvino Python package
(openvino.Core().read_model, compile_model) through the adapter protocol
(docs/adapter-protocol.md) on stdin and stdout.

Run it from the environment ci/install-deps.sh makes (.venv/openvino), as adapters/runtimes.json
does:
    onnxgate gate --suite onnx-node --runtime openvino --ep CPU

Providers are OpenVINO's devices: CPU (the default --ep) and GPU. A device OpenVINO does not find
on this machine is listed with the reason in the hello's "unavailable", so its cases SKIP.
Runtime options (the hello's "options"), each checked against the devices at the hello:
    config.<KEY>=value    a compile_model property for every device (config.INFERENCE_PRECISION_HINT=f32)
    <DEVICE>.<KEY>=value  a compile_model property for one device (CPU.NUM_STREAMS=1)
By default models compile with EXECUTION_MODE_HINT=ACCURACY (no lowering of float32 to bf16 or
f16) and as many inference threads as the load's intra_op_threads.
OpenVINO's ONNX frontend names no IR or opset limit; the adapter accepts those of the ONNX package
of its environment (openvino_versions.py).
Every node is placed on the load's device: OpenVINO compiles a whole model for one device or
refuses it, so nothing falls back. A model OpenVINO's frontend cannot convert (an op it lacks, an
opset or IR version past its limits), or one the adapter cannot feed (sequences, optionals,
element types numpy lacks), is UNIMPLEMENTED, so onnxgate reports it UNSUPPORTED.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
import adapter_protocol  # noqa: E402
from adapter_protocol import AdapterError  # noqa: E402

adapter_protocol.take_stdio()  # before OpenVINO is imported: nothing it prints hits a frame

import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402
import openvino as ov  # noqa: E402
import onnx_tensors  # noqa: E402

sys.path.insert(0, HERE)  # also when loaded as a module
import openvino_options  # noqa: E402
import openvino_versions  # noqa: E402

DEVICES = ["CPU", "GPU"]


def graph_values(graph):
    """The graph's inputs without an initializer and its outputs, as ValueInfoProtos; raises
    UNIMPLEMENTED for a value this adapter cannot pass to OpenVINO."""
    initialized = {t.name for t in graph.initializer}
    inputs = [v for v in graph.input if v.name not in initialized]
    for value in inputs + list(graph.output):
        kind = value.type.WhichOneof("value")
        if kind != "tensor_type":
            raise AdapterError("UNIMPLEMENTED", "graph value '%s' is a %s; this adapter passes "
                               "OpenVINO tensors only" % (value.name, kind or "value of no type"))
        elem = value.type.tensor_type.elem_type
        if elem not in onnx_tensors.NUMPY_NATIVE or elem == onnx.TensorProto.STRING:
            raise AdapterError("UNIMPLEMENTED", "graph value '%s' is of type %s; this adapter "
                               "passes OpenVINO numeric types numpy has" % (
                                   value.name, onnx_tensors.type_name(elem)))
    return inputs, list(graph.output)


def value_info(value):
    tensor = value.type.tensor_type
    info = {"name": value.name, "kind": "tensor", "dtype": tensor.elem_type}
    if tensor.HasField("shape"):
        info["dims"] = [d.dim_value if d.HasField("dim_value")
                        else (d.dim_param or None) for d in tensor.shape.dim]
    return info


def error_code(exc):
    """The protocol code for what OpenVINO raised reading or compiling a model."""
    return "UNIMPLEMENTED" if openvino_versions.declines(str(exc)) else "INVALID_ARGUMENT"


class Model:
    def __init__(self, compiled, inputs, outputs):
        self.compiled = compiled
        self.request = compiled.create_infer_request()
        self.inputs = inputs
        self.outputs = outputs
        # The graph inputs OpenVINO kept: it drops one no output depends on (CastLike's
        # 'target_type' input gives a type only), and such a feed is not passed.
        self.kept = {name for port in compiled.inputs for name in port.get_names()}


class Adapter:
    def __init__(self):
        self.core = ov.Core()
        self.models = {}
        self.next_id = 1
        self.options = openvino_options.RuntimeOptions()
        found = set(self.core.available_devices)
        self.unavailable = {d: "OpenVINO %s finds no %s device on this machine (it finds: %s)"
                            % (ov.__version__, d, ", ".join(sorted(found)) or "none")
                            for d in DEVICES if d not in found}

    def hello(self, header, blobs):
        adapter_protocol.check_protocol(header)
        try:
            self.options = openvino_options.parse(header.get("options") or {}, DEVICES)
            openvino_options.check_with(self.core, self.options, self.unavailable)
        except openvino_options.OptionError as exc:
            raise AdapterError("INVALID_ARGUMENT", str(exc))
        ir, opsets = openvino_versions.accepted_versions()
        return {"protocol": adapter_protocol.PROTOCOL, "name": "openvino",
                "version": ov.__version__, "ir": ir, "opsets": opsets, "providers": DEVICES,
                "unavailable": self.unavailable,
                "max_threads": {"CPU": os.cpu_count() or 1}}, []

    def claims(self, header, blobs):
        raise AdapterError("UNIMPLEMENTED", "OpenVINO's Python API does not list the ONNX ops "
                           "its frontend converts")

    def load(self, header, blobs):
        device = header["providers"][0]
        if device not in DEVICES:
            raise AdapterError("INVALID_ARGUMENT", "unknown device '%s'; OpenVINO's adapter "
                               "offers: %s" % (device, ", ".join(DEVICES)))
        if device in self.unavailable:
            raise AdapterError("UNAVAILABLE", self.unavailable[device])
        path = header["model_path"]
        try:
            proto = onnx.load(path, load_external_data=False)
        except Exception as exc:  # protobuf's and the file's own errors
            raise AdapterError("INVALID_ARGUMENT", "%s: not a readable ONNX model: %s"
                               % (path, str(exc).strip()))
        inputs, outputs = graph_values(proto.graph)
        config = self.options.config_for(device, int(header.get("intra_op_threads", 1)))
        try:
            compiled = self.core.compile_model(self.core.read_model(path), device, config)
        except Exception as exc:  # OpenVINO's own exception types
            raise AdapterError(error_code(exc), str(exc).strip())
        model_id = self.next_id
        self.next_id += 1
        self.models[model_id] = Model(compiled, inputs, outputs)
        placements = [{"node": node.name or "%s_%d" % (node.op_type, i), "op_type": node.op_type,
                       "domain": node.domain, "provider": device}
                      for i, node in enumerate(proto.graph.node)]
        return {"model": model_id, "inputs": [value_info(v) for v in inputs],
                "outputs": [value_info(v) for v in outputs],
                "metadata": {p.key: p.value for p in proto.metadata_props},
                "placements": placements}, []

    def run(self, header, blobs):
        model = self.models.get(header.get("model"))
        if model is None:
            raise AdapterError("NOT_FOUND", "no model %r" % header.get("model"))
        feeds = {}
        for feed in header["feeds"]:
            if feed["kind"] != "tensor":
                raise AdapterError("UNIMPLEMENTED", "feed '%s' is a %s; this adapter passes "
                                   "OpenVINO tensors only" % (feed["name"], feed["kind"]))
            if feed["name"] not in model.kept:
                continue
            feeds[feed["name"]] = numpy_helper.to_array(
                onnx_tensors.tensor_of_blob(blobs[feed["blob"]]))
        try:
            results = model.request.infer(feeds, share_inputs=False, share_outputs=False)
            values = [results[model.compiled.output(v.name)] for v in model.outputs]
        except Exception as exc:  # OpenVINO's own exception types
            raise AdapterError("INVALID_ARGUMENT", str(exc).strip())
        outputs, out_blobs = [], []
        for value, info in zip(values, model.outputs):
            elem = info.type.tensor_type.elem_type
            outputs.append({"name": info.name, "kind": "tensor", "dtype": elem,
                            "blob": len(out_blobs)})
            out_blobs.append(onnx_tensors.native_tensor_proto(value, elem).SerializeToString())
        return {"outputs": outputs}, out_blobs

    def unload(self, header, blobs):
        self.models.pop(header.get("model"), None)
        return {}, []


def main():
    adapter = Adapter()
    return adapter_protocol.serve("openvino_adapter", {
        "hello": adapter.hello, "claims": adapter.claims, "load": adapter.load,
        "run": adapter.run, "unload": adapter.unload})


if __name__ == "__main__":
    sys.exit(main())
