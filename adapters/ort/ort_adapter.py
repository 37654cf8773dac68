"""onnxgate's adapter for ONNX Runtime: drives the onnxruntime Python package through the adapter
protocol (docs/adapter-protocol.md) on stdin and stdout.

Run it from an environment ci/install-deps.sh makes, as adapters/runtimes.json does: .venv/ort
(onnxruntime), .venv/ort-openvino (onnxruntime-openvino) or .venv/ort-gpu (onnxruntime-gpu):
    onnxgate gate --suite onnx-node --runtime ort --ep CPUExecutionProvider
    onnxgate gate --suite onnx-node --runtime ort-openvino --ep OpenVINOExecutionProvider \
        --fallback forbid

Providers are ONNX Runtime's own names. Optimization levels map 0 -> ORT_DISABLE_ALL,
1 -> ORT_ENABLE_BASIC, 2 -> ORT_ENABLE_ALL. Runtime options (the hello's "options"):
    providers=A,B,...                    the priority list: A first in the hello's providers, and
                                         each session gets the load's providers, then the rest
    provider_option.<provider>.<key>=v   a provider option, for sessions using that provider
    session_config.<key>=v               a session config entry (SessionOptions)
    log_severity=0..4                    ONNX Runtime's log severity (default 3: errors only),
                                         its lines going to stderr
The accepted IR versions and opsets are asked of the loaded ONNX Runtime itself (ort_versions.py).
At the hello each provider but the CPU one is tried in a one-node session (ort_probe.py): one
that cannot run here (no device, a library missing) is listed in the hello's "unavailable", so
its cases SKIP with ONNX Runtime's words; provider options it refuses fail the hello, named.
Placements come from ONNX Runtime's own record of which provider it assigned each node
(session.record_ep_graph_assignment_info), or at optimization levels 1 and 2 from the optimized
model the session saves, so fused nodes appear as ONNX Runtime ran them (ort_placements.py);
every node on another provider than the first gets a decline per provider before it. What ONNX Runtime refuses at load because it lacks a kernel
(NOT_IMPLEMENTED) or does not know the model's IR version or opset is UNIMPLEMENTED, so onnxgate
reports it UNSUPPORTED; so is a forbidden fallback, naming the node.
"""

import ctypes
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import adapter_protocol  # noqa: E402
from adapter_protocol import AdapterError  # noqa: E402

adapter_protocol.take_stdio()  # before ONNX Runtime is imported: nothing it prints hits a frame

import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402
import onnx.parser  # noqa: E402
import onnxruntime as ort  # noqa: E402
import onnx_tensors  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # also when loaded as a module
import ort_options  # noqa: E402
import ort_placements  # noqa: E402
import ort_probe  # noqa: E402
import ort_versions  # noqa: E402

OPT_LEVELS = {
    0: ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
    1: ort.GraphOptimizationLevel.ORT_ENABLE_BASIC,
    2: ort.GraphOptimizationLevel.ORT_ENABLE_ALL,
}
# ONNX element types by the names ONNX Runtime's type strings use.
ELEM_TYPES = {
    name: getattr(onnx.TensorProto, name.upper())
    for name in [
        "float", "uint8", "int8", "uint16", "int16", "int32", "int64", "string", "bool",
        "float16", "double", "uint32", "uint64", "complex64", "complex128", "bfloat16",
        "float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "uint4", "int4",
        "float4e2m1", "float8e8m0", "uint2", "int2",
    ]
    if hasattr(onnx.TensorProto, name.upper())
}
# Element types numpy has natively; the others go to ONNX Runtime as OrtValues over raw bytes.
NUMPY_NATIVE = onnx_tensors.NUMPY_NATIVE


def model_source(path):
    """What ONNX Runtime loads for `path`: the path of a binary model, or the serialized proto of
    an ONNX text model (.onnxtxt), which ONNX Runtime cannot parse itself."""
    if not path.endswith(".onnxtxt"):
        return path
    try:
        with open(path, "r", encoding="utf-8") as f:
            return onnx.parser.parse_model(f.read()).SerializeToString()
    except Exception as exc:  # the parser's and the file's own errors
        raise AdapterError("INVALID_ARGUMENT", "%s: not a valid ONNX text model: %s" %
                           (path, str(exc).strip()))


def parse_type(type_string):
    """'tensor(float)' -> ('tensor', 1); 'seq(tensor(int64))' -> ('sequence', 7);
    'optional(seq(tensor(float)))' -> ('optional', 1, 'sequence')."""
    kind, inner = "tensor", type_string
    holds = "tensor"
    if inner.startswith("optional(") and inner.endswith(")"):
        kind, inner = "optional", inner[len("optional("):-1]
    if inner.startswith("seq(") and inner.endswith(")"):
        if kind == "optional":
            holds = "sequence"
        else:
            kind = "sequence"
        inner = inner[len("seq("):-1]
    elem = 0
    if inner.startswith("tensor(") and inner.endswith(")"):
        elem = ELEM_TYPES.get(inner[len("tensor("):-1], 0)
    return kind, elem, holds


def value_info(arg):
    kind, elem, _ = parse_type(arg.type)
    info = {"name": arg.name, "kind": kind, "dtype": elem}
    if kind == "tensor" and arg.shape is not None:
        info["dims"] = [d if isinstance(d, (int, str)) else None for d in arg.shape]
    return info


def tensor_feed(proto):
    if proto.data_type in NUMPY_NATIVE:
        return numpy_helper.to_array(proto)
    # bfloat16, the float8 and float4 types, int4/uint4, int2/uint2: an OrtValue of that type
    # filled with the tensor's bytes as ONNX stores them (the sub-byte types packed).
    raw = proto.raw_data
    if not raw:
        raw = numpy_helper.to_array(proto).tobytes()
    value = ort.OrtValue.ortvalue_from_shape_and_type(list(proto.dims), proto.data_type)
    if len(raw) != value.tensor_size_in_bytes():
        raise AdapterError("INVALID_ARGUMENT", "feed '%s': %d bytes for %d" %
                           (proto.name, len(raw), value.tensor_size_in_bytes()))
    ctypes.memmove(value.data_ptr(), raw, len(raw))
    return value


def decode_feed(feed, blobs):
    blob = blobs[feed["blob"]]
    kind = feed["kind"]
    if kind == "tensor":
        return tensor_feed(onnx_tensors.tensor_of_blob(blob))
    if kind == "sequence":
        proto = onnx.SequenceProto()
        proto.ParseFromString(blob)
        return [numpy_helper.to_array(t) for t in proto.tensor_values]
    proto = onnx.OptionalProto()
    proto.ParseFromString(blob)
    if proto.HasField("tensor_value"):
        return numpy_helper.to_array(proto.tensor_value)
    if proto.HasField("sequence_value"):
        return [numpy_helper.to_array(t) for t in proto.sequence_value.tensor_values]
    return None


def ortvalue_proto(value, elem):
    """A tensor OrtValue of a type numpy lacks, from its bytes in memory."""
    proto = onnx.TensorProto()
    proto.data_type = elem
    proto.dims.extend(value.shape())
    proto.raw_data = ctypes.string_at(value.data_ptr(), value.tensor_size_in_bytes())
    return proto


def tensor_proto(array, elem):
    if isinstance(array, ort.OrtValue):
        if elem not in NUMPY_NATIVE and array.is_tensor():
            return ortvalue_proto(array, elem)
        array = array.numpy()
    array = np.asarray(array)
    if elem in (0, onnx.TensorProto.STRING) or array.dtype == object:
        if elem == onnx.TensorProto.STRING or array.dtype == object:
            return numpy_helper.from_array(array.astype(object))
    if elem in NUMPY_NATIVE or elem == 0:
        return numpy_helper.from_array(array)
    # Non-numpy types come back as their codes (uint8 / uint16): keep the bytes, set the type.
    proto = onnx.TensorProto()
    proto.data_type = elem
    proto.dims.extend(array.shape)
    proto.raw_data = np.ascontiguousarray(array).tobytes()
    return proto


def encode_output(value, arg):
    kind, elem, holds = parse_type(arg.type)
    if kind == "tensor":
        return "tensor", elem, tensor_proto(value, elem).SerializeToString()
    if kind == "sequence":
        proto = onnx.SequenceProto()
        proto.elem_type = onnx.SequenceProto.TENSOR
        for item in value:
            proto.tensor_values.append(tensor_proto(item, elem))
        return "sequence", elem, proto.SerializeToString()
    proto = onnx.OptionalProto()
    if holds == "sequence":
        proto.elem_type = onnx.OptionalProto.SEQUENCE
        if value is not None:
            proto.sequence_value.elem_type = onnx.SequenceProto.TENSOR
            for item in value:
                proto.sequence_value.tensor_values.append(tensor_proto(item, elem))
    else:
        proto.elem_type = onnx.OptionalProto.TENSOR
        if value is not None:
            proto.tensor_value.CopyFrom(tensor_proto(value, elem))
    return "optional", elem, proto.SerializeToString()


def error_code(exc):
    """The protocol code for an exception ONNX Runtime raised at load."""
    text = str(exc)
    name = type(exc).__name__
    if name == "NotImplemented" or "NOT_IMPLEMENTED" in text:
        return "UNIMPLEMENTED"
    # What ONNX Runtime does not know or does not support, as its messages say it.
    declined = ["Unsupported model IR version", "ValidateOpsetForDomain", "is under development",
                "is not a registered function/op", "are not supported",
                # the OpenVINO EP took a node its OpenVINO then has no conversion or kernel for
                "OpenVINO does not support the following ONNX operations",
                "CPU plug-in doesn't support"]
    if any(phrase in text for phrase in declined):
        return "UNIMPLEMENTED"
    if name == "NoSuchFile":
        return "NOT_FOUND"
    return "INVALID_ARGUMENT"


def run_reporting(run_once):
    """One run; ONNX Runtime's failure as the protocol's error."""
    try:
        return run_once()
    except Exception as exc:
        code = "UNIMPLEMENTED" if type(exc).__name__ == "NotImplemented" else "INVALID_ARGUMENT"
        raise AdapterError(code, str(exc).strip())


class Adapter:
    def __init__(self):
        self.models = {}
        self.next_id = 1
        # The CPU provider first: the default --ep. (The list also holds providers such as
        # AzureExecutionProvider, which runs nothing locally and leaves every node to the CPU.)
        available = ort.get_available_providers()
        self.providers = sorted(available, key=lambda p: p != "CPUExecutionProvider")
        self.options = ort_options.RuntimeOptions()
        self.unavailable = {}  # {provider: why it cannot run here}, found at the hello

    def hello(self, header, blobs):
        adapter_protocol.check_protocol(header)
        try:
            self.options = ort_options.parse(header.get("options") or {}, self.providers)
            ir, opsets = ort_versions.accepted_versions(ort)
            self.unavailable = ort_probe.unavailable_providers(
                ort, self.providers, self.options.provider_options,
                ort_versions.probe_model(min(ir[1], 8), {"": 13}))
        except (ort_options.OptionError, ort_versions.UnknownLimits,
                ort_probe.ProviderOptionError) as exc:
            raise AdapterError("INVALID_ARGUMENT", str(exc))
        ort.set_default_logger_severity(self.options.log_severity)
        # The priority list's providers first: its first is the default --ep.
        listed = self.options.providers
        providers = listed + [p for p in self.providers if p not in listed]
        threads = {p: 1 for p in providers}
        threads["CPUExecutionProvider"] = os.cpu_count() or 1
        return {"protocol": adapter_protocol.PROTOCOL, "name": "onnxruntime",
                "version": ort.__version__, "ir": ir, "opsets": opsets, "providers": providers,
                "unavailable": self.unavailable, "max_threads": threads,
                "capabilities": ["timed_runs"]}, []

    def claims(self, header, blobs):
        raise AdapterError("UNIMPLEMENTED", "ONNX Runtime's Python API does not list the "
                           "kernels a provider has")

    def load(self, header, blobs):
        for p in header["providers"]:
            if p not in self.providers:
                raise AdapterError("INVALID_ARGUMENT", "unknown execution provider '%s'; ONNX "
                                   "Runtime offers: %s" % (p, ", ".join(self.providers)))
        if header["providers"][0] in self.unavailable:
            raise AdapterError("UNAVAILABLE", self.unavailable[header["providers"][0]])
        providers = self.options.session_providers(header["providers"])
        source = model_source(header["model_path"])
        options = self.session_options(header)
        level = header.get("optimization_level", 0)
        with tempfile.TemporaryDirectory(prefix="ort_adapter_") as scratch:
            optimized = None
            if ort_placements.saves_optimized_model(level, providers):
                optimized = (source, os.path.join(scratch, "optimized.onnx"))
                options.optimized_model_filepath = optimized[1]
            try:
                session = ort.InferenceSession(
                    source, options, providers=providers,
                    provider_options=[self.options.provider_options.get(p, {})
                                      for p in providers])
            except Exception as exc:  # ONNX Runtime's own exception types
                raise AdapterError(error_code(exc), str(exc).strip())
            placements = ort_placements.of_session(session, providers, optimized)
        if header.get("fallback") == "forbid":
            try:
                ort_placements.check_no_fallback(placements, providers)
            except ort_placements.PlacementError as exc:
                raise AdapterError(exc.code, str(exc))
        model_id = self.next_id
        self.next_id += 1
        self.models[model_id] = session
        meta = session.get_modelmeta().custom_metadata_map
        return {"model": model_id,
                "inputs": [value_info(a) for a in session.get_inputs()],
                "outputs": [value_info(a) for a in session.get_outputs()],
                "metadata": dict(meta), "placements": placements or []}, []

    def session_options(self, header):
        so = ort.SessionOptions()
        so.log_severity_level = self.options.log_severity
        so.graph_optimization_level = OPT_LEVELS.get(header.get("optimization_level", 0),
                                                     ort.GraphOptimizationLevel.ORT_ENABLE_ALL)
        so.intra_op_num_threads = int(header.get("intra_op_threads", 1))
        so.inter_op_num_threads = 1
        so.add_session_config_entry("session.record_ep_graph_assignment_info", "1")
        for key, value in self.options.session_config.items():
            so.add_session_config_entry(key, value)
        return so

    def session(self, header):
        session = self.models.get(header.get("model"))
        if session is None:
            raise AdapterError("NOT_FOUND", "no model %r" % header.get("model"))
        return session

    def prepared_feeds(self, session, header, blobs):
        """The request's feeds as ONNX Runtime takes them, and a function that runs the session
        on them once; outputs of types numpy lacks are read as OrtValues, from their bytes."""
        feeds = {f["name"]: decode_feed(f, blobs) for f in header["feeds"]}
        declared = [parse_type(a.type) for a in session.get_outputs()]
        exotic = any(kind == "tensor" and elem not in NUMPY_NATIVE for kind, elem, _ in declared)
        if not exotic:
            return lambda: session.run(None, feeds)
        feeds = {name: ort.OrtValue.ortvalue_from_numpy(v) if isinstance(v, np.ndarray) else v
                 for name, v in feeds.items()}

        def run_exotic():
            results = session.run_with_ort_values(None, feeds)
            return [v if elem not in NUMPY_NATIVE else v.numpy()
                    for v, (_, elem, _) in zip(results, declared)]
        return run_exotic

    def run(self, header, blobs):
        session = self.session(header)
        run_once = self.prepared_feeds(session, header, blobs)
        results = run_reporting(run_once)
        outputs, out_blobs = [], []
        for value, arg in zip(results, session.get_outputs()):
            kind, elem, blob = encode_output(value, arg)
            outputs.append({"name": arg.name, "kind": kind, "dtype": elem,
                            "blob": len(out_blobs)})
            out_blobs.append(blob)
        return {"outputs": outputs}, out_blobs

    def timed_runs(self, header, blobs):
        """Runs the model header["runs"] times on feeds converted once, timing each session run
        alone with time.perf_counter_ns; the outputs are discarded."""
        session = self.session(header)
        runs = header.get("runs")
        if not isinstance(runs, int) or isinstance(runs, bool) or runs < 1:
            raise AdapterError("INVALID_ARGUMENT", "runs must be an integer >= 1, got %r" % runs)
        run_once = self.prepared_feeds(session, header, blobs)
        clock = time.perf_counter_ns
        times = []
        for _ in range(runs):
            start = clock()
            run_reporting(run_once)
            times.append((clock() - start) / 1e6)
        return {"times_ms": times, "clock": "perf_counter"}, []

    def unload(self, header, blobs):
        self.models.pop(header.get("model"), None)
        return {}, []


def main():
    adapter = Adapter()
    return adapter_protocol.serve("ort_adapter", {
        "hello": adapter.hello, "claims": adapter.claims, "load": adapter.load,
        "run": adapter.run, "timed_runs": adapter.timed_runs, "unload": adapter.unload})


if __name__ == "__main__":
    sys.exit(main())
