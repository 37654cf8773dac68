#!/usr/bin/env bash
# The fallback audit on a real accelerator EP: a model built to have one node the OpenVINO EP
# declines (Hardmax, between MatMuls, a Relu and a Sigmoid that it takes) is caught by
# `check-model --runtime ort-openvino --ep OpenVINOExecutionProvider --fallback forbid` (exit 1,
# naming that node and where it would run), and with the CPU provider behind it
# (--ep OpenVINOExecutionProvider+CPUExecutionProvider) it loads with that node, and only it, on
# the CPU. Then the generated model zoo is checked the same way, printing for each model how many
# nodes, of which ops, fell back to the CPU provider. Last, bad input: an EP the runtime does not
# offer and provider options it refuses are exit 2 naming them, and a device that is not here
# (OpenVINO's GPU, where there is none) makes each case SKIP with the reason.
#
# Usage: ci/check-openvino-fallback.sh <onnxgate binary> <repository root>. Needs
# .venv/ort-openvino and .venv/openvino (ci/install-deps.sh).
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root>" >&2
  exit 2
fi
onnxgate=$(realpath "$1")
root=$(realpath "$2")
python=$root/.venv/ort-openvino/bin/python
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "check-openvino-fallback: $*" >&2
  exit 1
}
[[ -x $python ]] || fail "$python is missing (ci/install-deps.sh makes .venv/ort-openvino)"
command -v jq >/dev/null || fail "jq is not installed (ci/install-deps.sh installs it)"

# check <name> <expected exit code> <model> <--ep value> [options...]: output in $work/<name>.out
check() {
  local name=$1 want=$2 model=$3 ep=$4 rc=0
  shift 4
  "$onnxgate" --root "$root" check-model "$model" --runtime ort-openvino --ep "$ep" "$@" \
    >"$work/$name.out" 2>&1 || rc=$?
  [[ $rc == "$want" ]] || { cat "$work/$name.out" >&2; fail "$name exited $rc, not $want"; }
}
says() {  # says <name> <text>
  grep -qF -- "$2" "$work/$1.out" || { cat "$work/$1.out" >&2; fail "$1 does not say '$2'"; }
}

"$python" - "$work/declined.onnx" <<'PY'
import sys
import numpy as np
import onnx
from onnx import helper, numpy_helper

node = helper.make_node
value = helper.make_tensor_value_info
weights = numpy_helper.from_array(np.full((8, 8), 0.125, np.float32), "W")
graph = helper.make_graph(
    [node("MatMul", ["x", "W"], ["a"], name="matmul_in"),
     node("Relu", ["a"], ["r"], name="relu"),
     node("Hardmax", ["r"], ["h"], name="declined_hardmax", axis=1),
     node("MatMul", ["h", "W"], ["b"], name="matmul_out"),
     node("Sigmoid", ["b"], ["y"], name="sigmoid_out")],
    "one_declined_node", [value("x", onnx.TensorProto.FLOAT, [2, 8])],
    [value("y", onnx.TensorProto.FLOAT, [2, 8])], [weights])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
PY

check forbid 1 "$work/declined.onnx" OpenVINOExecutionProvider --fallback forbid
says forbid "declined_hardmax"
says forbid "node 'declined_hardmax' (Hardmax-13) falls back to CPUExecutionProvider"
fell=$(grep -c -- '-> CPUExecutionProvider (fallback)' "$work/forbid.out" || true)
[[ $fell == 1 ]] || { cat "$work/forbid.out" >&2; fail "$fell nodes fall back, not 1"; }
check allow 0 "$work/declined.onnx" OpenVINOExecutionProvider+CPUExecutionProvider
says allow "declined_hardmax  Hardmax-13  -> CPUExecutionProvider"
on_cpu=$(grep -c -- '-> CPUExecutionProvider' "$work/allow.out" || true)
[[ $on_cpu == 1 ]] || { cat "$work/allow.out" >&2; fail "$on_cpu nodes on the CPU, not 1"; }
echo "check-openvino-fallback: check-model --fallback forbid names node 'declined_hardmax'" \
  "(Hardmax), the one node the OpenVINO EP declines"

"$onnxgate" zoo generate "$work/zoo" >/dev/null
for model in "$work"/zoo/*.onnx; do
  name=$(basename "$model" .onnx)
  check "zoo-$name" 0 "$model" OpenVINOExecutionProvider+CPUExecutionProvider
  nodes=$(sed -n 's/^nodes *//p' "$work/zoo-$name.out")
  ops=$(sed -n 's/^  [^ ]*  \([A-Za-z0-9_.]*\)-[0-9]*  -> CPUExecutionProvider$/\1/p' \
    "$work/zoo-$name.out" | sort | uniq -c | awk '{printf "%s%s x%s", sep, $2, $1; sep=", "}')
  fell=$(grep -c -- '-> CPUExecutionProvider' "$work/zoo-$name.out" || true)
  echo "check-openvino-fallback: zoo $name: $fell of $nodes nodes fell back to" \
    "CPUExecutionProvider${ops:+ ($ops)}"
done

# run <name> <expected exit code> <onnxgate arguments...>: output in $work/<name>.out
run() {
  local name=$1 want=$2 rc=0
  shift 2
  "$onnxgate" --root "$root" "$@" >"$work/$name.out" 2>&1 || rc=$?
  [[ $rc == "$want" ]] || { cat "$work/$name.out" >&2; fail "$name exited $rc, not $want"; }
}
run unknown-ep 2 run --suite smoke --runtime ort-openvino --ep CUDAExecutionProvider
says unknown-ep "unknown EP 'CUDAExecutionProvider' (this runtime offers: CPUExecutionProvider, OpenVINOExecutionProvider)"
run refused-option 2 run --suite smoke --runtime ort-openvino --ep OpenVINOExecutionProvider \
  --runtime-option provider_option.OpenVINOExecutionProvider.nosuch=1
says refused-option "runtime option provider_option.OpenVINOExecutionProvider.nosuch=1"
says refused-option "Invalid OpenVINO EP option: nosuch"
run refused-property 2 run --suite smoke --runtime openvino --runtime-option CPU.NUM_STREAMS=many
says refused-property "runtime option 'CPU.NUM_STREAMS': OpenVINO's CPU device refuses"
if ! "$root/.venv/openvino/bin/python" -c \
  'import openvino, sys; sys.exit("GPU" in openvino.Core().available_devices)'; then
  echo "check-openvino-fallback: this machine has a GPU; the SKIP of a missing device is not checked"
else
  run no-gpu 0 gate --suite smoke --runtime openvino --ep GPU --json "$work/no-gpu.json"
  skipped=$(jq '[.cases[] | select(.verdict == "SKIP")] | length' "$work/no-gpu.json")
  total=$(jq '.cases | length' "$work/no-gpu.json")
  [[ $skipped == "$total" && $total -gt 0 ]] || fail "openvino --ep GPU: $skipped of $total SKIP"
  jq -r '.cases[0].message' "$work/no-gpu.json" | grep -qF "finds no GPU device on this machine" ||
    fail "openvino --ep GPU: the SKIP does not give OpenVINO's reason"
fi
echo "check-openvino-fallback: an unknown EP and refused options are exit 2 naming them;" \
  "a missing device is SKIP with its reason"
