#!/usr/bin/env python3
"""Writes the expectations of ONNX Runtime with the OpenVINO EP (conformance/expectations/
ort-openvino.json) or of OpenVINO's own runtime (openvino.json) from a run of both ONNX node
suites and the smoke suite:

    build/harness/onnxgate run --suite onnx-node --suite onnx-node-1.12 --suite smoke \\
        --runtime ort-openvino --ep OpenVINOExecutionProvider --fallback forbid -j 2 \\
        --json ort-openvino-run.json
    .venv/ort-openvino/bin/python ci/accelerator-expectations.py ort-openvino \\
        ort-openvino-run.json conformance/expectations/ort-openvino.json
    (the same with --runtime openvino, "openvino" and openvino.json; and with
    --ep OpenVINOExecutionProvider+CPUExecutionProvider --fallback warn for
    conformance/expectations/fallback-allowed/ort-openvino.json)

Every case that does not pass gets an entry whose reason says why, grouped by cause in the
runtime's own words: the op the OpenVINO EP leaves to the CPU provider (never taken, or taken
elsewhere but not with this case's types or attributes), what ONNX Runtime or OpenVINO's ONNX
frontend refuses at load (the op, opset or IR version it lacks), what OpenVINO's compiler fails
on (its check and message), the element types the OpenVINO adapter does not pass, and the
comparison's numbers for wrong values or shapes. Reasons quote the messages; review the file
after regenerating it. Run it with a Python that has ONNX's package (either environment), which
reads each case's graph input types for the reasons.
"""

import json
import os
import re
import sys

try:
    import onnx
except ImportError:  # the reasons then leave the input types out
    onnx = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

OPENVINO_EP = "OpenVINOExecutionProvider"


def strip_prefix(message):
    message = re.sub(r"^set \d+: run failed: ", "", message)
    message = re.sub(r"^adapter '[^']*': (running|loading) [^:]*: ", "", message)
    message = re.sub(r"Load model from \S+ failed:", "", message)
    message = re.sub(r"\[ONNXRuntimeError\] : \d+ : \w+ : ", "", message)
    return message.strip()


def key_line(text):
    """The line of an OpenVINO exception that says what failed: the last 'Check ...' with the
    line after it, else the last non-empty line; source locations left out."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    lines = [re.sub(r" at src/\S+:\d+:?", "", line) for line in lines]
    lines = [line for line in lines if not line.startswith("Exception from src/")]
    checks = [i for i, line in enumerate(lines) if line.startswith("Check '")]
    if checks:
        i = checks[-1]
        said = [line for line in lines[i + 1:] if not line.startswith("FrontEnd API failed")]
        return (lines[i] + (": " + said[0] if said else ""))[:240]
    return (lines[-1] if lines else text)[:240]


def conversion_failure(text):
    """'Resize-19: <why>' from OpenVINO's 'Model wasn't fully converted' report, or None."""
    m = re.search(r"Conversion is failed for: ([\w.,\- ]+)", text)
    if not m:
        return None
    before = text[:text.rfind("Summary:")] if "Summary:" in text else text
    lines = [line.strip() for line in before.splitlines() if line.strip()]
    why = re.sub(r" at src/\S+:\d+:?", "", lines[-1]) if lines else ""
    return f"{m.group(1).strip()}: {why}"[:240]


def fallback_ops(message):
    """The op types of the nodes a forbidden fallback names, in order, each once."""
    ops = []
    for op in re.findall(r"'[^']*' \(([\w.]+)\)", message):
        if op not in ops:
            ops.append(op)
    return ops


def input_types(suite, case_name, models={}):
    """The element type names of a case's graph inputs that have no initializer, or []."""
    if onnx is None:
        return []
    if suite not in models:
        with open(os.path.join(ROOT, "suites", suite, "suite.json")) as f:
            models[suite] = {c["name"]: c["model"] for c in json.load(f)["cases"]}
    path = os.path.join(ROOT, "suites", suite, models[suite].get(case_name, ""))
    if not path.endswith(".onnx"):
        return []
    try:
        graph = onnx.load(path, load_external_data=False).graph
    except Exception:  # a text model or none: no types to name
        return []
    initialized = {t.name for t in graph.initializer}
    return [onnx.TensorProto.DataType.Name(v.type.tensor_type.elem_type).lower()
            for v in graph.input if v.name not in initialized and v.type.HasField("tensor_type")]


def taken_ops(run):
    """The op types the OpenVINO EP ran in some passing case."""
    return {p["op_type"] for c in run["cases"] if c["verdict"] == "PASS"
            for p in c.get("placements") or [] if p.get("ep") == OPENVINO_EP}


def load_refusal(text, who):
    """A reason for what ONNX Runtime or OpenVINO refused at load, or None."""
    m = re.search(r"is till opset (\d+)", text)
    if m or "ValidateOpsetForDomain" in text:
        return f"{who} loads ai.onnx opsets up to {m.group(1) if m else 'an older one'}; this " \
               "model imports a newer one."
    m = re.search(r"max supported IR version: (\d+)", text)
    if m:
        return f"{who} loads IR versions up to {m.group(1)}; this model is newer."
    m = re.search(r"(?:Could not find an implementation|Failed to find kernel) for "
                  r"(\w+)\((\d+)\)", text)
    if m:
        return f"{who}'s CPU provider has no kernel for {m.group(1)}-{m.group(2)} with this " \
               "case's types (NOT_IMPLEMENTED); the OpenVINO EP does not take it either."
    m = re.search(r"([\w.]+):(\w+)\(-?\d+\) is not a registered function/op", text)
    if m:
        return f"{who} does not know the op {m.group(1)}:{m.group(2)}."
    m = re.search(r"OpenVINO does not support the following ONNX operations: ([\w., -]+)", text)
    if m:
        return f"{who}'s OpenVINO EP takes {m.group(1).strip()} but its OpenVINO has no " \
               "conversion for it (OpenVINO does not support the following ONNX operations)."
    m = re.search(r"No conversion rule found for operations: ([\w., -]+)", text)
    if m:
        return f"{who}'s ONNX frontend has no conversion for {m.group(1).strip()}."
    if "layout == 1" in text:
        return f"{who}'s CPU RNN, GRU and LSTM kernels refuse layout=1 (batchwise)."
    return None


# Why the OpenVINO EP leaves an op it takes elsewhere, where a test showed it: (op, why).
EP_CONDITIONS = {
    "Reshape": "only when its 'shape' input is a constant initializer (test_reshape_reduced_dims "
               "moves to the EP when its shape is made one); here it is a graph input or "
               "computed",
}


def unsupported_reason(case, text, who, taken):
    ops = fallback_ops(text) if "fallback is forbidden" in text else []
    if ops and ops[0] in EP_CONDITIONS and ops[0] in taken:
        return f"The OpenVINO EP of {who} takes {ops[0]} {EP_CONDITIONS[ops[0]]}: ONNX Runtime " \
               "runs it on CPUExecutionProvider, a fallback --fallback forbid refuses."
    if ops:
        never = [op for op in ops if op not in taken]
        inputs = ", ".join(sorted(set(input_types(case["suite"], case["case"])))) or "none"
        if never:
            return f"The OpenVINO EP of {who} does not take {', '.join(never)}: ONNX Runtime " \
                   "runs it on CPUExecutionProvider, a fallback --fallback forbid refuses."
        return f"The OpenVINO EP of {who} takes {', '.join(ops)} elsewhere but not here, with " \
               f"this case's types or attributes (graph inputs: {inputs}): ONNX Runtime runs it " \
               "on CPUExecutionProvider, a fallback --fallback forbid refuses."
    refused = load_refusal(text, who)
    if refused:
        return refused
    m = re.search(r"graph value '[^']*' is (?:of type (\w+)|a (\w+))", text)
    if m:
        what = (f"a graph value of type {m.group(1)}" if m.group(1)
                else f"a graph value that is a {m.group(2).replace('_type', '')}")
        return f"The OpenVINO adapter passes OpenVINO numeric tensors of numpy's types only; " \
               f"this case has {what} (OpenVINO's Python API has no numpy form for it)."
    failed = conversion_failure(text)
    if failed:
        return f"{who}'s ONNX frontend does not convert " + failed
    return f"{who} declines: " + key_line(text)


def failure_reason(case, text, who):
    verdict = case["verdict"]
    if re.search(r"shape \[[^]]*\] expected, got", text):
        return f"{who} returns an output of another shape: " + text[:220]
    if re.search(r"would pass with (rtol|atol)|no tolerance would pass|values must be equal",
                 text):
        return f"Wrong values from {who}, within no project tolerance: " + text[:240]
    if "INVALID_GRAPH" in text or "invalid model" in text:
        return f"{who} rejects the model as invalid at load: " + key_line(text)
    if "Type Error" in text:
        return f"{who}'s type check rejects the model at load: " + key_line(text)
    if "reports no node placements" in text:
        return f"{who} runs no node of this model (it folds the graph into constants at load), " \
               "so its record holds no placement and a forbidden fallback cannot be checked."
    failed = conversion_failure(text)
    if failed:
        return f"{who} fails to convert " + failed
    if verdict == "UNRESOLVED" and ("OpenVINO" in text or "Check '" in text):
        return f"{who} takes the nodes, but OpenVINO fails to build them: " + key_line(text)
    return f"{verdict} on {who}: " + key_line(text)


# Causes found by reading the case: (suite, case, the reason after the runtime's name).
KNOWN = [
    ("smoke", "softmax_opset11",
     "computes Softmax-11 with its default axis 1 of a [2,3,4] input over axis 1 alone (as "
     "Softmax-13 does); Softmax before opset 13 coerces the input to 2-D [2,12] and normalizes "
     "each row of 12, so every value differs (expected 0.021194432, got 0.72717327)."),
]


def reason_for(case, who, taken):
    for suite, name, reason in KNOWN:
        if case["suite"] == suite and case["case"] == name and case["verdict"] == "FAIL":
            return "xfail", f"{who} {reason}"
    text = strip_prefix(case["message"])
    if case["verdict"] == "UNSUPPORTED":
        return "unsupported", unsupported_reason(case, text, who, taken)
    return "xfail", failure_reason(case, text, who)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("ort-openvino", "openvino"):
        print("usage: accelerator-expectations.py ort-openvino|openvino <run.json> "
              "<expectations.json>", file=sys.stderr)
        return 2
    kind, run_path, out_path = sys.argv[1:]
    run = json.load(open(run_path))
    version = run["runtime"]["version"] if isinstance(run.get("runtime"), dict) else ""
    who = (f"ONNX Runtime {version} (onnxruntime-openvino)" if kind == "ort-openvino"
           else f"OpenVINO {version.split('-')[0]}")
    taken = taken_ops(run)
    entries = []
    for case in run["cases"]:
        if case["verdict"] in ("PASS", "SKIP"):
            continue
        status, reason = reason_for(case, who, taken)
        entry = {"suite": case["suite"], "case": case["case"], "status": status, "reason": reason}
        outcome = case.get("outcome", case["verdict"])
        if status == "xfail" and outcome != "FAIL":
            entry["verdict"] = outcome
        entries.append(entry)
    entries.sort(key=lambda e: (e["suite"], e["case"]))
    eps = sorted({case["ep"] for case in run["cases"]})
    if len(eps) != 1:
        print(f"{run_path}: expected a run on one EP, got {', '.join(eps) or 'none'}",
              file=sys.stderr)
        return 2
    ep = eps[0]
    doc = {"schema": "onnxgate-expectations", "schema_version": 1, "ep": ep, "entries": entries}
    with open(out_path, "w") as f:
        json.dump(doc, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"{len(entries)} entries written to {out_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
