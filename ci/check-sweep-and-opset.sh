#!/usr/bin/env bash
# Shape sweeps, opset conversions down-level and the default atol of recorded cases, end to end:
#  - an attention model swept over its sequence dimension against a reference (the built-in
#    runtime's dnnl, or a golden recorded at each size) matches at every size; the same sweep
#    without a reference is a usage error saying what to give; a batch sweep still checks rows;
#  - check-model --target-opset 17 on an opset-20 model with a Gelu names that node, its op
#    version and the opset where Gelu first exists; a convertible opset-20 model is brought down
#    and its converted run matches the original's;
#  - a recorded case gets an atol scaled to its outputs, and outputs far below an atol warn.
#
# Usage: ci/check-sweep-and-opset.sh <onnxgate binary>. Exit 0 when every check holds.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 <onnxgate binary>" >&2
  exit 2
fi
bin=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "check-sweep-and-opset: $*" >&2
  exit 1
}

# expect <name> <exit code> <text in stderr or stdout> -- <onnxgate arguments...>
expect() {
  local name=$1 want_rc=$2 says=$3
  shift 4
  local rc=0
  "$bin" --root "$work/root" "$@" >"$work/$name.out" 2>"$work/$name.err" || rc=$?
  [[ $rc -eq $want_rc ]] ||
    fail "$name exited $rc, expected $want_rc: $(cat "$work/$name.err" "$work/$name.out")"
  grep -qF -- "$says" "$work/$name.err" "$work/$name.out" ||
    fail "$name does not say '$says': $(cat "$work/$name.err" "$work/$name.out")"
}

# Single-head self-attention over `seq`: every position's output mixes every other position.
cat >"$work/attention.onnxtxt" <<'MODEL'
<ir_version: 8, opset_import: ["" : 17]>
attention (float[seq, 16] X, float[16, 16] Wq, float[16, 16] Wk, float[16, 16] Wv) => (float[seq, 16] Y) {
  Q = MatMul(X, Wq)
  K = MatMul(X, Wk)
  V = MatMul(X, Wv)
  Kt = Transpose <perm = [1, 0]> (K)
  S = MatMul(Q, Kt)
  scale = Constant <value = float {0.25}> ()
  Scaled = Mul(S, scale)
  P = Softmax <axis = -1> (Scaled)
  Y = MatMul(P, V)
}
MODEL
cat >"$work/rows.onnxtxt" <<'MODEL'
<ir_version: 8, opset_import: ["" : 17]>
rows (float[batch, 8] X) => (float[batch, 8] Y) {
  Y = Softmax <axis = 1> (X)
}
MODEL
cat >"$work/gelu20.onnxtxt" <<'MODEL'
<ir_version: 9, opset_import: ["" : 20]>
gelu (float[2, 8] X) => (float[2, 8] Y) {
  H = Relu(X)
  Y = Gelu <approximate = "tanh"> (H)
}
MODEL
# ReduceMean's axes are an input from opset 18 on; at 17 the converter makes them an attribute.
cat >"$work/mean20.onnxtxt" <<'MODEL'
<ir_version: 9, opset_import: ["" : 20]>
mean (float[batch, 8] X) => (float[batch, 1] Y) {
  axes = Constant <value = int64[1] {1}> ()
  H = Relu(X)
  Y = ReduceMean <keepdims = 1> (H, axes)
}
MODEL
# Outputs of magnitude 1e-9: ONNX's atol of 1e-7 is larger than all of them.
cat >"$work/tiny.onnxtxt" <<'MODEL'
<ir_version: 8, opset_import: ["" : 17]>
tiny (float[2, 4] X) => (float[2, 4] Y, float[2, 4] Z) {
  small = Constant <value = float {1e-9}> ()
  Y = Mul(X, small)
  big = Constant <value = float {300}> ()
  Z = Mul(X, big)
}
MODEL
mkdir -p "$work/root"

# 1. Sequence sweeps need a reference; with one, a correct attention model passes.
expect seq-against 0 "SAME: every size of seq gives the reference's result" -- \
  sweep "$work/attention.onnxtxt" --dim seq=1,4,8 --against builtin --against-ep dnnl \
  --json "$work/seq.json"
grep -qF '"check": "reference"' "$work/seq.json" || fail "the sweep's JSON does not say its check"
grep -qF "3 of 3 outputs match" "$work/seq-against.out" || fail "seq-against: not 3 of 3 outputs"
expect seq-alone 2 "give a reference to compare each size with, --against RUNTIME" -- \
  sweep "$work/attention.onnxtxt" --dim seq=1,4,8
expect seq-as-batch 1 "DIFFERENT: some size of seq changes a row's result" -- \
  sweep "$work/attention.onnxtxt" --dim seq=1,4 --batch-dim seq
expect record-seq 0 "" -- record "$work/attention.onnxtxt" --suite seq --dim seq=1,4,8
expect seq-golden 0 "SAME: every size of seq gives the reference's result" -- \
  sweep "$work/attention.onnxtxt" --dim seq=1,4,8 --ep dnnl \
  --golden "$work/root/golden/data/seq/attention.h5"
expect seq-golden-lacks 2 "no data set at seq=16 (it has seq=1, seq=4, seq=8)" -- \
  sweep "$work/attention.onnxtxt" --dim seq=4,16 --golden "$work/root/golden/data/seq/attention.h5"
expect batch-rows 0 "SAME: every size of batch gives each row its own result" -- \
  sweep "$work/rows.onnxtxt" --dim batch=1,4

# 2. Down-level conversion: a blocking node named; a convertible model converted and compared.
expect gelu-to-17 1 \
  "1 node blocks it: node 'Gelu#1' (Gelu version 20): Gelu first exists in opset 20" -- \
  check-model "$work/gelu20.onnxtxt" --target-opset 17
expect mean-to-17 0 "converted, loads, outputs match the original's" -- \
  check-model "$work/mean20.onnxtxt" --target-opset 17 --dim batch=3 --json "$work/mean.json"
grep -qF '"outputs_match": true' "$work/mean.json" || fail "mean-to-17: the JSON has no match"

# 3. A recorded case's atol is scaled to its outputs; the tiny output warns.
expect record-tiny 0 "larger than most nonzero values of output 'Y'" -- \
  record "$work/tiny.onnxtxt" --suite mine
if grep -qF "output 'Z'" "$work/record-tiny.err"; then fail "record-tiny warns about Z"; fi
atol=$(python3 -c '
import json, sys
suite = json.load(open(sys.argv[1]))
print([c for c in suite["cases"] if c["name"] == "tiny"][0]["tolerance"]["atol"])
' "$work/root/suites/mine/suite.json")
[[ $atol == 0.0003 ]] || fail "record-tiny: the case's atol is $atol, expected 0.0003 (300 x 1e-6)"
expect record-given 0 "" -- record "$work/tiny.onnxtxt" --suite mine --case given --atol 1e-12
echo "check-sweep-and-opset: sequence sweep against dnnl and a golden passes, without a" \
  "reference exit 2;" \
  "Gelu-20 named as blocking opset 17; ReduceMean-20 converted to 17 and matching;" \
  "recorded atol $atol"
