#!/usr/bin/env bash
# The worked example of docs/accelerator-eps.md ("Latency shows the fallback"): two models that
# differ in one node, a Softmax the OpenVINO EP takes and a Hardmax it declines (between two
# MatMuls, a Relu and a Sigmoid it takes), measured with `bench --runtime ort-openvino --ep
# OpenVINOExecutionProvider+CPUExecutionProvider --against ort` in alternating turns; then the
# generated zoo the same way. The reports (JSON and Markdown in the output folder) name the node
# that fell back beside each measurement, which is what ties a slowdown to the fallback.
# Not a CTest (it measures); needs .venv/ort and .venv/ort-openvino (ci/install-deps.sh).
#
# Usage: ci/openvino-fallback-latency.sh <output folder> [onnxgate binary]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 <output folder> [onnxgate binary]" >&2
  exit 2
fi
mkdir -p "$1/models"
out=$(realpath "$1")
onnxgate=$(realpath "${2:-$root/build/harness/onnxgate}")

"$root/.venv/ort/bin/python" - "$out/models" <<'PY'
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper

node = helper.make_node
value = helper.make_tensor_value_info
rng = np.random.default_rng(1)
weights = (rng.standard_normal((512, 512)) / 32).astype(np.float32)
for name, middle, attrs in [("all_taken_softmax", "Softmax", {}),
                            ("declined_hardmax", "Hardmax", {"axis": 1})]:
    graph = helper.make_graph(
        [node("MatMul", ["x", "W"], ["a"], name="matmul_in"),
         node("Relu", ["a"], ["r"], name="relu"),
         node(middle, ["r"], ["h"], name="middle_" + middle.lower(), **attrs),
         node("MatMul", ["h", "W"], ["b"], name="matmul_out"),
         node("Sigmoid", ["b"], ["y"], name="sigmoid_out")],
        name, [value("x", onnx.TensorProto.FLOAT, [64, 512])],
        [value("y", onnx.TensorProto.FLOAT, [64, 512])],
        [numpy_helper.from_array(weights, "W")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, "%s/%s.onnx" % (sys.argv[1], name))
PY

bench() {  # bench <name> <models folder> [options...]
  local name=$1 models=$2
  shift 2
  "$onnxgate" --root "$root" bench --models "$models" --runtime ort-openvino \
    --ep OpenVINOExecutionProvider+CPUExecutionProvider --against ort --fallback warn "$@" \
    --json "$out/$name.json" --markdown "$out/$name.md" | tee "$out/$name.log"
}
bench one-node "$out/models" --quick
"$onnxgate" zoo generate "$out/zoo" >/dev/null
bench zoo "$out/zoo" --quick --model '*'
