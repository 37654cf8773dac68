"""The IR versions and opsets the loaded ONNX Runtime accepts, asked of ONNX Runtime itself.

ONNX Runtime's Python API does not list them, but its model loader names its limits when it
refuses a model past them: "Unsupported model IR version: 1000, max supported IR version: 13" and
"... Current official support for domain ai.onnx is till opset 26." So a one-node model stamped
with an impossible IR version, and one per domain with an impossible opset, are offered to it and
its answers read. Where ONNX Runtime loads unreleased opsets too
(ALLOW_RELEASED_ONNX_OPSET_ONLY=0) it names no opset limit; a domain's limit is then the highest
version among the op schemas it registers. The lower ends are not checked by ONNX Runtime: IR 3
is the first IR version with opset imports, and opsets start at 1.
"""

import re

import onnx
from onnx import helper

MIN_IR = 3
MIN_OPSET = 1
IMPOSSIBLE = 100000
# Domains ONNX Runtime has kernels for; "" is ai.onnx, which its messages call "ai.onnx".
DOMAINS = ["", "ai.onnx.ml", "com.microsoft"]
IR_LIMIT = re.compile(r"max supported IR version: (\d+)")
OPSET_LIMIT = re.compile(r"Current official support for domain (\S+) is till opset (\d+)")


class UnknownLimits(Exception):
    """ONNX Runtime did not name a limit where it was expected to."""


def probe_model(ir_version, opsets):
    """A model of one Identity node with the given IR version and {domain: version} imports."""
    value = helper.make_tensor_value_info
    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "probe",
                              [value("x", onnx.TensorProto.FLOAT, [1])],
                              [value("y", onnx.TensorProto.FLOAT, [1])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v)
                                                    for d, v in opsets.items()])
    model.ir_version = ir_version
    return model.SerializeToString()


def refusal(ort, model):
    """ONNX Runtime's message refusing `model`, or None when it loads it."""
    options = ort.SessionOptions()
    options.log_severity_level = 3
    try:
        ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # ONNX Runtime's own exception types
        return str(exc)
    return None


def registered_opsets(ort):
    """{domain: the highest since_version of ONNX Runtime's registered op schemas}, or {} where
    its Python module does not list them."""
    schemas = getattr(ort.capi.onnxruntime_pybind11_state, "get_all_operator_schema", None)
    highest = {}
    try:
        for schema in schemas() if schemas else []:
            highest[schema.domain] = max(highest.get(schema.domain, 0), schema.since_version)
    except Exception:  # a build without schemas
        return {}
    return highest


def accepted_versions(ort):
    """(ir [min, max], {domain: [min, max]}) for the ONNX Runtime module `ort`. Raises
    UnknownLimits, quoting ONNX Runtime, when it does not name its IR limit or its ai.onnx one;
    another domain whose limit it does not name is left out."""
    said = refusal(ort, probe_model(IMPOSSIBLE, {"": 7})) or "the model loaded"
    found = IR_LIMIT.search(said)
    if not found:
        raise UnknownLimits("ONNX Runtime %s did not name its highest IR version when refusing "
                            "IR %d: %s" % (ort.__version__, IMPOSSIBLE, said[:300]))
    ir_max = int(found.group(1))
    probe_ir = min(ir_max, 7)
    registered = registered_opsets(ort)
    opsets, refusals = {}, {}
    for domain in DOMAINS:
        imports = {"": 7, domain: IMPOSSIBLE} if domain else {"": IMPOSSIBLE}
        refusals[domain] = refusal(ort, probe_model(probe_ir, imports)) or "the model loaded"
        found = OPSET_LIMIT.search(refusals[domain])
        if found and found.group(1) == (domain or "ai.onnx"):
            opsets[domain] = [MIN_OPSET, int(found.group(2))]
        elif domain in registered:  # unreleased opsets allowed: as far as its schemas go
            opsets[domain] = [MIN_OPSET, registered[domain]]
    if "" not in opsets:
        raise UnknownLimits("ONNX Runtime %s did not name its highest ai.onnx opset when "
                            "refusing opset %d: %s" % (ort.__version__, IMPOSSIBLE,
                                                       refusals[""][:300]))
    return [MIN_IR, ir_max], opsets
