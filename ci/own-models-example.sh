#!/usr/bin/env bash
# The worked example of docs/own-models.md, checked: the small zoo with a dynamic batch
# dimension is recorded on ref with its intermediate values into a suite of its own (and
# re-recorded: unchanged), gated, gated again on a provider with a deliberately wrong Relu (each
# failing model is attributed to a Relu node, and the matrix blames Relu alone),
# checked against ONNX Runtime with fallback forbidden, diffed at optimization level 2 against
# level 0 layer by layer, swept over batch 1/4/16 (the transformer encoder's baked-in batch is
# caught), and diffed on that provider, which must name the Relu node.
#
# Usage: ci/own-models-example.sh <onnxgate binary> <repository root> <test providers plugin>.
# Needs jq and .venv/ort (ci/install-deps.sh).
set -euo pipefail

if [[ $# -ne 3 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root> <test providers plugin>" >&2
  exit 2
fi
onnxgate=$(realpath "$1")
root=$(realpath "$2")
plugin=$(realpath "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

check_name=own-models-example
source "$root/ci/lib/workflow-check.sh"

run 0 zoo zoo generate "$work/zoo" --small --dynamic-batch
models=(mlp resnet18 mobilenet_v2 transformer_encoder)
mkdir -p "$work/repo/conformance/expectations"

for m in "${models[@]}"; do
  run 0 "record-$m" --root "$work/repo" record "$work/zoo/$m.onnx" --suite zoo-models \
    --dim batch=1 --layerwise --created 2026-11-27T00:00:00Z
  run 0 "rerecord-$m" --root "$work/repo" record "$work/zoo/$m.onnx" --suite zoo-models \
    --dim batch=1 --layerwise --created 2026-11-27T00:00:00Z
  grep -q "the model is unchanged" "$work/rerecord-$m.log" || fail "a re-record of $m did not compare"
done
run 0 gate --root "$work/repo" gate --suite zoo-models --ep ref --junit "$work/gate.xml" \
  --json "$work/gate.json"
[[ $(jq '[.cases[] | select(.verdict == "PASS")] | length' "$work/gate.json") == "${#models[@]}" ]] ||
  fail "the gate of the recorded suite did not pass all ${#models[@]} cases"

# The same suite on a Relu that lets negatives through: the models with a Relu fail, each
# attributed to its first Relu node, and the matrix's only failing cell is Relu's.
run 1 gate-broken --root "$work/repo" gate --suite zoo-models --runtime "plugin:$plugin" \
  --ep test-broken-relu --json "$work/gate-broken.json"
failed=$(jq '[.cases[] | select(.verdict == "FAIL")] | length' "$work/gate-broken.json")
[[ $failed -ge 2 ]] || fail "only $failed model(s) failed on test-broken-relu"
[[ $(jq '[.cases[] | select(.verdict == "FAIL" and .first_divergence.op == "Relu")] | length' \
  "$work/gate-broken.json") == "$failed" ]] || fail "a failing model was not attributed to Relu"
[[ $(jq -c '[.matrix[] | select(.counts.FAIL) | .op] | unique' "$work/gate-broken.json") == '["Relu"]' ]] ||
  fail "the matrix blames another op than Relu"

for m in "${models[@]}"; do
  run 0 "check-$m" --root "$root" check-model "$work/zoo/$m.onnx" --runtime ort \
    --fallback forbid --junit "$work/check-$m.xml" --json "$work/check-$m.json"
  run 0 "diff-$m" --root "$root" diff "$work/zoo/$m.onnx" --optimization-level 2 \
    --against builtin --layerwise --rtol 1e-4 --atol 1e-5
done

for m in mlp resnet18 mobilenet_v2; do
  run 0 "sweep-$m" --root "$root" sweep "$work/zoo/$m.onnx" --dim batch=1,4,16
done
run 1 sweep-transformer --root "$root" sweep "$work/zoo/transformer_encoder.onnx" --dim batch=1,4,16
grep -q "DIFFERS batch=4" "$work/sweep-transformer.log" ||
  fail "the sweep did not name batch 4 for the transformer encoder"

run 1 diff-broken --root "$root" diff "$work/zoo/mlp.onnx" --runtime "plugin:$plugin" \
  --ep test-broken-relu --against builtin --layerwise
grep -q "first divergence: node .* (Relu)" "$work/diff-broken.log" ||
  fail "the layerwise diff on test-broken-relu did not name a Relu node"
echo "own-models-example: every step gave the documented result"
