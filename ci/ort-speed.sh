#!/usr/bin/env bash
# Times onnxgate's gate of a suite on ONNX Runtime through the adapter (-j 2, isolation on)
# against ONNX Runtime's own Python loop over the same cases in one process
# (ci/ort-python-loop.py), in one run on the same machine, and prints both.
#
# Usage: ci/ort-speed.sh [suite] (default onnx-node-1.12); after ci/install-deps.sh and a build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
suite=${1:-onnx-node-1.12}
bin=${ONNXGATE_BUILD_DIR:-$root/build}/harness/onnxgate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

start=$(date +%s%N)
rc=0
"$bin" --root "$root" gate --suite "$suite" --runtime ort -j 2 --json "$work/gate.json" \
  >"$work/gate.out" 2>&1 || rc=$?
gate_s=$(python3 -c "print(round(($(date +%s%N) - $start) / 1e9, 2))")
loop=$("$root/.venv/ort/bin/python" "$root/ci/ort-python-loop.py" "$root" "$suite" 2>/dev/null)
loop_s=$(jq -r .seconds <<<"$loop")
echo "onnxgate gate --runtime ort -j 2: ${gate_s} s, exit $rc, $(jq '.cases | length' "$work/gate.json") cases"
echo "ONNX Runtime's Python loop:        ${loop_s} s ($loop)"
echo "ratio: $(python3 -c "print(round($gate_s / $loop_s, 2))")"
