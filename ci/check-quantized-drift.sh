#!/usr/bin/env bash
# The INT8-against-FP32 workflow of docs/own-models.md, checked: a small FP32 conv classifier is
# generated with onnx's helper (deterministic weights), quantized by ONNX Runtime's quantizer
# (quantize_static, QDQ format, a deterministic calibration reader), and one `onnxgate diff
# int8.onnx --against-model fp32.onnx` judges it by cosine and top-1 agreement with --layerwise,
# on the built-in runtime and on ONNX Runtime: it must pass, and its per-tensor report must name
# the worst tensor (the float tensor of lowest SQNR, matched to its dequantized copy). A threshold
# the model cannot meet must fail (exit 1); a threshold out of range and a reference model whose
# outputs do not correspond must be refused (exit 2). One diff over a dataset of 3 images judges
# every set and names the worst. Then the gate: the FP32 parent's outputs
# over a dataset of 3 images recorded as the INT8 model's golden (record --reference-model), its
# suite case judged by "metrics" (cosine, top1) on both runtimes; a threshold it cannot meet fails
# the gate and blames the model (no op's matrix cell), and a threshold out of range in suite.json
# is refused, as is a reference model whose outputs do not correspond.
#
# Usage: ci/check-quantized-drift.sh <onnxgate binary> <repository root>. Needs jq and .venv/ort
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

check_name=check-quantized-drift
source "$root/ci/lib/workflow-check.sh"
need_ort_venv "$root"

"$python" - "$work" <<'PYEOF' 2>"$work/quantizer.log" || { cat "$work/quantizer.log"; fail "quantizing failed"; }
import sys
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                      quantize_static)

work = sys.argv[1]
rng = np.random.default_rng(7)
weights = {
    "conv_w": (rng.standard_normal((4, 1, 3, 3)) * 0.5).astype(np.float32),
    "conv_b": (rng.standard_normal(4) * 0.1).astype(np.float32),
    "fc_w": (rng.standard_normal((256, 10)) * 0.1).astype(np.float32),
    "fc_b": (rng.standard_normal(10) * 0.1).astype(np.float32),
    "flat_shape": np.array([1, 256], dtype=np.int64),
}
nodes = [
    helper.make_node("Conv", ["image", "conv_w", "conv_b"], ["conv"], name="conv",
                     pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["conv"], ["relu"], name="relu"),
    helper.make_node("Reshape", ["relu", "flat_shape"], ["flat"], name="flatten"),
    helper.make_node("MatMul", ["flat", "fc_w"], ["fc"], name="fc"),
    helper.make_node("Add", ["fc", "fc_b"], ["logits"], name="fc_bias"),
]
graph = helper.make_graph(
    nodes, "classifier", [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 1, 8, 8])],
    [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 10])],
    [numpy_helper.from_array(v, k) for k, v in weights.items()])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, f"{work}/fp32.onnx")

# The same classifier with one more output: outputs that do not correspond.
model.graph.output.append(helper.make_tensor_value_info("relu", TensorProto.FLOAT, [1, 4, 8, 8]))
onnx.save(model, f"{work}/fp32-two-outputs.onnx")


# Calibration over 16 images; the first is also the image the diff runs on.
images = [np.random.default_rng(11 + i).standard_normal((1, 1, 8, 8)).astype(np.float32)
          for i in range(16)]


class Calibration(CalibrationDataReader):
    def __init__(self):
        self.sets = iter([{"image": image} for image in images])

    def get_next(self):
        return next(self.sets, None)


quantize_static(f"{work}/fp32.onnx", f"{work}/int8.onnx", Calibration(),
                quant_format=QuantFormat.QDQ, activation_type=QuantType.QInt8,
                weight_type=QuantType.QInt8)
with open(f"{work}/image.pb", "wb") as f:
    f.write(numpy_helper.from_array(images[0], "image").SerializeToString())
# A dataset of 3 images for the gate.
for i in range(3):
    np.savez(f"{work}/set_{i}.npz", image=images[i])
PYEOF

int8=$work/int8.onnx
fp32=$work/fp32.onnx
for runtime in builtin ort; do
  run 0 "judged-$runtime" --root "$root" diff "$int8" --against-model "$fp32" --runtime "$runtime" \
    --input "$work/image.pb" --metric cosine=0.999 --metric top1=1 --top-k 3 --layerwise \
    --json "$work/judged-$runtime.json"
  log=$work/judged-$runtime.log
  grep -q '^  same    output logits: cosine .* (>= 0.999, margin .*), top1 1 (>= 1, margin 0)' "$log" ||
    fail "$runtime: the output is not judged by cosine and top1 with margins"
  grep -q '^SAME' "$log" || fail "$runtime: no SAME verdict"
  # The worst tensor: the float tensor with the lowest SQNR among those compared (each matched
  # to the dequantized tensor that stands for it), named first in the text and the JSON.
  json=$work/judged-$runtime.json
  [[ $(jq '.intermediates | length' "$json") == 3 ]] || fail "$runtime: not 3 tensors compared"
  worst=$(jq -r '.intermediates | min_by(.metrics.sqnr_db) | .value' "$json")
  echo "worst tensor: $worst"
  grep -A1 '^worst values by SQNR:' "$log" |
    grep -q "^  .* -> $worst \\[candidate ${worst}_DequantizeLinear_Output\\]: sqnr .* dB" ||
    fail "$runtime: the worst tensor $worst is not named"
  [[ $(jq -r '.worst_intermediates[0]' "$json") == "$worst" ]] || fail "$runtime: JSON worst tensor"
  [[ $(jq -r '.outputs[0].judged_by' "$json") == metrics ]] || fail "$runtime: JSON judged_by"
  [[ $(jq '.outputs[0].metrics | has("cosine") and has("sqnr_db") and has("top3")' "$json") == \
    true ]] || fail "$runtime: JSON metrics"
  [[ $(jq '.passed' "$json") == true ]] || fail "$runtime: JSON verdict"
done

# The dataset of 3 images in one diff: every set judged, the worst named, one verdict.
sets=(--input "$work/set_0.npz" --input "$work/set_1.npz" --input "$work/set_2.npz")
run 0 dataset --root "$root" diff "$int8" --against-model "$fp32" "${sets[@]}" \
  --metric cosine=0.99 --json "$work/dataset.json"
grep -q '^data sets  3$' "$work/dataset.log" || fail "the diff did not run 3 data sets"
[[ $(grep -c '^  same    output logits: cosine' "$work/dataset.log") == 3 ]] ||
  fail "not every data set's output judged"
grep -q '^worst set: data set [0-2] (.*set_[0-2].npz), output logits: sqnr .* dB' \
  "$work/dataset.log" || fail "the worst data set is not named"
grep -q '^SAME: the candidate matches the reference on all 3 data sets' "$work/dataset.log" ||
  fail "no SAME verdict over the dataset"
[[ $(jq '.data_sets | length' "$work/dataset.json") == 3 ]] || fail "JSON: not 3 data sets"
[[ $(jq -r '.worst_data_set' "$work/dataset.json") == "data set "* ]] || fail "JSON: worst set"

# A threshold the model cannot meet: DIFFERENT on every set, with how far it misses.
run 1 too-strict --root "$root" diff "$int8" --against-model "$fp32" "${sets[@]}" \
  --metric sqnr_db=80 --layerwise
grep -q 'sqnr_db .* (>= 80, FAILS by ' "$work/too-strict.log" || fail "no failing margin"
grep -q '^first divergence: node relu (Relu)' "$work/too-strict.log" || fail "no first divergence"
grep -q '^DIFFERENT: the candidate does not match the reference on 3 of 3 data sets' \
  "$work/too-strict.log" || fail "no DIFFERENT verdict over the dataset"

# Bad input: a threshold out of range, a negative top-k, outputs that do not correspond.
run 2 cosine-above-1 --root "$root" diff "$int8" --against-model "$fp32" --metric cosine=1.5
grep -q "metric 'cosine' is a cosine similarity in \[-1, 1\], got 1.5" "$work/cosine-above-1.log" ||
  fail "cosine above 1 not named"
run 2 negative-top-k --root "$root" diff "$int8" --against-model "$fp32" --top-k -1
grep -q -- '--top-k must be a positive' "$work/negative-top-k.log" || fail "negative top-k"
run 2 not-corresponding --root "$root" diff "$int8" --against-model "$work/fp32-two-outputs.onnx"
grep -q "outputs do not correspond: .*relu" "$work/not-corresponding.log" ||
  fail "outputs that do not correspond not named"

# The gate: a suite case with "metrics" in its own repository.
repo=$work/repo
mkdir -p "$repo/conformance/expectations"
ln -s "$root/adapters" "$repo/adapters"
ln -s "$root/.venv" "$repo/.venv"
run 2 record-not-corresponding --root "$repo" record "$int8" --suite quantized \
  --input "$work/set_0.npz" --reference-model "$work/fp32-two-outputs.onnx"
[[ ! -e $repo/suites/quantized ]] || fail "a refused record wrote the suite"
run 0 record --root "$repo" record "$int8" --suite quantized --input "$work/set_0.npz" \
  --input "$work/set_1.npz" --input "$work/set_2.npz" --reference-model "$fp32" \
  --created 2026-11-29T00:00:00Z
grep -q "^recorded int8: 3 data set(s), outputs from fp32.onnx on " "$work/record.log" ||
  fail "the record did not take the FP32 parent's outputs over 3 data sets"
suite=$repo/suites/quantized/suite.json
with_metrics() {
  jq --argjson m "$1" '.cases[0].metrics = $m' "$suite" >"$work/suite.json"
  mv "$work/suite.json" "$suite"
}
with_metrics '{"cosine": 0.995, "top1": 1}'
run 0 gate --root "$repo" gate --suite quantized --runtime builtin --runtime ort \
  --json "$work/gate.json"
[[ $(jq -c '[.cases[] | .verdict]' "$work/gate.json") == '["PASS","PASS"]' ]] ||
  fail "the metric-judged gate did not pass on both runtimes"
[[ $(jq -c '[.cases[0].outputs[0].metrics[] | .metric]' "$work/gate.json") == \
  '["cosine","top1"]' ]] || fail "the gate's JSON has no metrics with margins"
with_metrics '{"cosine": 0.999999}'
run 1 gate-strict --root "$repo" gate --suite quantized --json "$work/gate-strict.json"
jq -r '.cases[0].message' "$work/gate-strict.json" |
  grep -q "output 'logits': judged by metrics: cosine .* (>= 0.999999, FAILS by " ||
  fail "the failing gate does not say which metric failed by how much"
[[ $(jq '.matrix | length' "$work/gate-strict.json") == 0 ]] ||
  fail "a metric-judged failure with no op named was blamed on ops"
with_metrics '{"cosine": 2}'
run 2 gate-bad-metric --root "$repo" gate --suite quantized
grep -q "cases\[0\].metrics.cosine: metric 'cosine' is a cosine similarity in \[-1, 1\], got 2" \
  "$work/gate-bad-metric.log" || fail "a cosine threshold above 1 was not named"
echo "check-quantized-drift: OK"
