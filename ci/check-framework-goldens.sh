#!/usr/bin/env bash
# The framework-goldens example of docs/own-models.md, checked: a small MLP (MatMul, Add, Relu,
# Softmax, dynamic batch) is generated with onnx's helper, its outputs over a dataset of 4 input
# sets are computed by a second implementation (NumPy, not onnxgate or ONNX Runtime), and the
# pipeline is the two documented commands: `record` with those outputs as the golden (the
# runtime's distance from them printed), then one `gate` on ref, dnnl and ONNX Runtime side by
# side, which must pass on all three. Expected outputs that do not fit the model and a dataset
# whose sets give different inputs must be refused (exit 2) with nothing written.
#
# Usage: ci/check-framework-goldens.sh <onnxgate binary> <repository root>. Needs jq and .venv/ort
# (ci/install-deps.sh).
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root>" >&2
  exit 2
fi
onnxgate=$(realpath "$1")
root=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

check_name=check-framework-goldens
source "$root/ci/lib/workflow-check.sh"
need_ort_venv "$root"

# A repository of its own: the suite and golden are written there, never into the real suites/.
# ONNX Runtime's adapter is found through adapters/runtimes.json and .venv under the root.
repo=$work/repo
mkdir -p "$repo/conformance/expectations"
ln -s "$root/adapters" "$repo/adapters"
ln -s "$root/.venv" "$repo/.venv"

data=$work/data
mkdir -p "$data/inputs" "$data/expected"
"$python" - "$data" <<'EOF'
import sys
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

data = sys.argv[1]
rng = np.random.default_rng(2026)
w1 = (rng.standard_normal((8, 16)) * 0.5).astype(np.float32)
b1 = (rng.standard_normal(16) * 0.1).astype(np.float32)
w2 = (rng.standard_normal((16, 4)) * 0.5).astype(np.float32)
b2 = (rng.standard_normal(4) * 0.1).astype(np.float32)
nodes = [
    helper.make_node("MatMul", ["x", "w1"], ["h0"]),
    helper.make_node("Add", ["h0", "b1"], ["h1"]),
    helper.make_node("Relu", ["h1"], ["h2"]),
    helper.make_node("MatMul", ["h2", "w2"], ["h3"]),
    helper.make_node("Add", ["h3", "b2"], ["logits"]),
    helper.make_node("Softmax", ["logits"], ["probs"], axis=-1),
]
graph = helper.make_graph(
    nodes, "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 8])],
    [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 4]),
     helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["batch", 4])],
    [numpy_helper.from_array(a, n) for a, n in ((w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2"))])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model)
onnx.save(model, f"{data}/mlp.onnx")

# The "framework": the same network in NumPy, over 4 input sets of different batch sizes.
for i, batch in enumerate((1, 2, 3, 5)):
    x = rng.standard_normal((batch, 8)).astype(np.float32)
    logits = np.maximum(x @ w1 + b1, 0) @ w2 + b2
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    np.savez(f"{data}/inputs/set_{i}.npz", x=x)
    np.savez(f"{data}/expected/set_{i}.npz", logits=logits.astype(np.float32),
             probs=(e / e.sum(axis=-1, keepdims=True)).astype(np.float32))
# Bad input: an expected output of the wrong shape, and a set that names its input otherwise.
np.savez(f"{data}/wrong_shape.npz", logits=np.zeros((1, 5), np.float32),
         probs=np.zeros((1, 4), np.float32))
np.savez(f"{data}/other_name.npz", input=np.zeros((1, 8), np.float32))
EOF
producer="numpy $("$python" -c 'import numpy; print(numpy.__version__)')"

# 1. Record: the NumPy outputs over the 4 sets become the golden; ref runs every set and its
#    distance from NumPy is printed.
inputs=() expected=()
for i in 0 1 2 3; do
  inputs+=(--input "$data/inputs/set_$i.npz")
  expected+=(--expected "$data/expected/set_$i.npz")
done
run 0 record --root "$repo" record "$data/mlp.onnx" --suite framework "${inputs[@]}" \
  "${expected[@]}" --producer "$producer" --created 2026-11-29T00:00:00Z
grep -q "recorded mlp: 4 data set(s), outputs from $producer" "$work/record.log" ||
  fail "the record did not write 4 data sets from $producer"
[[ $(grep -c "^  data set [0-3] (.*) output '\(logits\|probs\)': max abs" "$work/record.log") == 8 ]] ||
  fail "the record did not print the runtime's distance for 2 outputs of each of 4 sets"
grep -q "every output within the case's tolerance" "$work/record.log" ||
  fail "ref is not within the case's tolerance of NumPy"
[[ $(jq -r '.cases[0].recorded_with' "$repo/suites/framework/suite.json") == "$producer" ]] ||
  fail "suite.json does not name $producer as the golden's producer"

# 2. Gate on ref, dnnl and ONNX Runtime side by side: 3 cases (one per runtime/EP), all PASS.
run 0 gate --root "$repo" gate --suite framework --runtime builtin --ep ref --ep dnnl \
  --runtime ort --json "$work/gate.json"
[[ $(jq -c '[.cases[] | "\(.runtime)/\(.ep)=\(.verdict)"] | sort' "$work/gate.json") == \
  '["onnxgate/dnnl=PASS","onnxgate/ref=PASS","onnxruntime/CPUExecutionProvider=PASS"]' ]] ||
  fail "the side-by-side gate: $(jq -c '[.cases[] | [.runtime, .ep, .verdict]]' "$work/gate.json")"

# Bad input writes nothing.
run 2 bad-shape --root "$repo" record "$data/mlp.onnx" --suite bad --input "$data/inputs/set_0.npz" \
  --expected "$data/wrong_shape.npz" --producer "$producer"
grep -q "wrong_shape.npz (expected outputs of data set 0 (.*set_0.npz)): output 'logits' has shape \[1,5\]" \
  "$work/bad-shape.log" || fail "the wrong expected shape was not named"
run 2 bad-names --root "$repo" record "$data/mlp.onnx" --suite bad --input "$data/inputs/set_0.npz" \
  --input "$data/other_name.npz"
grep -q "data set 1 (.*other_name.npz) gives the inputs input, data set 0 (.*) gives x" \
  "$work/bad-names.log" || fail "the sets' different input names were not named"
[[ ! -e $repo/suites/bad && ! -e $repo/golden/data/bad ]] || fail "a refused record wrote files"
echo "check-framework-goldens: every step gave the documented result"
