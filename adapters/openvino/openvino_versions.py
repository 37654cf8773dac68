"""The IR versions and opsets the OpenVINO adapter accepts, and which of OpenVINO's errors mean
it declines a model (UNIMPLEMENTED) rather than finding it invalid.

OpenVINO's ONNX frontend names no limits: read_model takes a model stamped IR 100000 or opset
100000 without a word and converts each node with the newest translator it has for the op. So
the adapter accepts what the ONNX package of its environment defines (onnx.helper.VERSION_TABLE's
last row: its IR version, ai.onnx and ai.onnx.ml opsets), the versions the suites' models are
written in; a node at a version past OpenVINO's translators shows as what OpenVINO computes.
"""

import re

import onnx.helper

MIN_IR = 3
MIN_OPSET = 1
# What OpenVINO says when its frontend has no translator for an op, or a plugin no kernel for a
# node, a type or an attribute value: valid input it does not take.
DECLINED = re.compile(
    r"OpenVINO does not support the following ONNX operations|No conversion rule found|"
    r"[Nn]ot supported|[Uu]nsupported|is not implemented|[Nn]ot implemented|"
    r"doesn't support|does not support|No translator|Cannot create .* layer")


def accepted_versions():
    """(ir [min, max], {domain: [min, max]}), "" being ai.onnx."""
    _, ir, opset, ml_opset = onnx.helper.VERSION_TABLE[-1][:4]
    return [MIN_IR, ir], {"": [MIN_OPSET, opset], "ai.onnx.ml": [MIN_OPSET, ml_opset]}


def declines(message):
    """Whether OpenVINO's `message`, raised reading or compiling a model, says it declines it."""
    return DECLINED.search(message) is not None
