#!/usr/bin/env bash
# `bench --models DIR --dim batch=4 --dim seq=128` on the real binary: an exported-style
# transformer in a subfolder (DIR/encoder/model.onnxtxt, symbolic batch and seq, int64 token ids
# ranged by its metadata) is measured at that shape, which the table and the JSON report name; a
# folder with one unmeasurable model measures the others, reports that model's error and exits 2
# naming it; a --dim no model has is refused before anything is measured.
#
# Usage: ci/check-bench-shapes.sh <onnxgate binary>. Needs jq.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 <onnxgate binary>" >&2
  exit 2
fi
onnxgate=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "check-bench-shapes: $*" >&2
  exit 1
}
command -v jq >/dev/null || fail "jq is not installed (ci/install-deps.sh installs it)"

models=$work/models
mkdir -p "$models/encoder"
cat >"$models/encoder/model.onnxtxt" <<'MODEL'
<ir_version: 8, opset_import: ["" : 17],
 metadata_props: ["onnxgate.input_range.input_ids" : "0 8"]>
encoder (int64[batch, seq] input_ids) => (float[batch, seq, 4] hidden) {
  table = Constant <value = float[8, 4] {
    -0.8, -0.5, -0.2, 0.1, 0.4, 0.7, -0.7, -0.4, -0.1, 0.2, 0.5, 0.8, -0.6, -0.3, 0.0, 0.3,
    0.6, -0.8, -0.5, -0.2, 0.1, 0.4, 0.7, -0.7, -0.4, -0.1, 0.2, 0.5, 0.8, -0.6, -0.3, 0.0}> ()
  scale = Constant <value = float[4] {1.0, 1.0, 1.0, 1.0}> ()
  bias = Constant <value = float[4] {0.0, 0.0, 0.0, 0.0}> ()
  emb = Gather <axis = 0> (table, input_ids)
  keys = Transpose <perm = [0, 2, 1]> (emb)
  scores = MatMul (emb, keys)
  probs = Softmax <axis = -1> (scores)
  context = MatMul (probs, emb)
  residual = Add (context, emb)
  hidden = LayerNormalization <axis = -1> (residual, scale, bias)
}
MODEL

bench() {
  local name=$1
  shift
  set +e
  "$onnxgate" bench --quick --models "$models" "$@" --json "$work/$name.json" \
    >"$work/$name.out" 2>"$work/$name.err"
  rc=$?
  set -e
}

# The transformer at batch 4, sequence 128.
bench shapes --dim batch=4 --dim seq=128
((rc == 0)) || { cat "$work/shapes.out" "$work/shapes.err" >&2; fail "bench --dim exited $rc"; }
grep -q 'encoder\[batch=4,seq=128\] on ref' "$work/shapes.out" ||
  fail "no progress line names encoder[batch=4,seq=128]"
grep -Eq '^encoder +ref +1 +batch=4,seq=128 ' "$work/shapes.out" ||
  { cat "$work/shapes.out" >&2; fail "the table does not show encoder at batch=4,seq=128"; }
[[ $(jq -c '[.latency[] | select(.model == "encoder" and .shapes == "batch=4,seq=128"
              and .median_ms > 0)] | length' "$work/shapes.json") == 1 ]] ||
  fail "the JSON report has no measurement of encoder at batch=4,seq=128"

# One model that cannot be read: the others are measured, it is its own error, exit 2.
echo "not an ONNX model" >"$models/broken.onnx"
bench broken --dim batch=4 --dim seq=128
((rc == 2)) || { cat "$work/broken.out" "$work/broken.err" >&2; fail "exit $rc, expected 2"; }
grep -q 'not measured: broken\[ref,1t\]' "$work/broken.err" ||
  { cat "$work/broken.err" >&2; fail "stderr does not name the unmeasurable model"; }
[[ $(jq -r '.latency[] | select(.model == "broken") | .verdict' "$work/broken.json") == error ]] ||
  fail "the JSON report has no error entry for broken"
[[ $(jq '[.latency[] | select(.model == "encoder" and .median_ms > 0)] | length' \
      "$work/broken.json") == 1 ]] || fail "encoder was not measured beside the broken model"

# A --dim that no model has: refused before measuring.
rm "$models/broken.onnx"
bench unknown --dim sequence=128
((rc == 2)) || fail "--dim sequence exited $rc, expected 2"
grep -q -- "--dim sequence: no measured model has a dimension named 'sequence'" "$work/unknown.err" ||
  { cat "$work/unknown.err" >&2; fail "--dim sequence was not refused by name"; }
if grep -q median "$work/unknown.out"; then fail "--dim sequence measured something"; fi

echo "check-bench-shapes: ok"
