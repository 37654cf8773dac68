#!/usr/bin/env bash
# Times onnxgate's gate of a suite on ONNX Runtime through the adapter (-j 2, long-lived isolated
# workers) against ONNX Runtime's own Python loop over the same cases in one process
# (ci/ort-python-loop.py), taking turns in one run on the same machine, 3 times each, and prints
# each time, the medians and their ratio.
#
# Usage: ci/ort-speed.sh [suite] (default onnx-node-1.12); after ci/install-deps.sh and a build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
suite=${1:-onnx-node-1.12}
bin=${ONNXGATE_BUILD_DIR:-$root/build}/harness/onnxgate
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gate_times=()
loop_times=()
for round in 1 2 3; do
  start=$(date +%s%N)
  rc=0
  "$bin" --root "$root" gate --suite "$suite" --runtime ort -j 2 --json "$work/gate.json" \
    >"$work/gate.out" 2>&1 || rc=$?
  gate_s=$(python3 -c "print(round(($(date +%s%N) - $start) / 1e9, 2))")
  loop=$("$root/.venv/ort/bin/python" "$root/ci/ort-python-loop.py" "$root" "$suite" 2>/dev/null)
  loop_s=$(jq -r .seconds <<<"$loop")
  echo "round $round: onnxgate gate --runtime ort -j 2: ${gate_s} s (exit $rc," \
    "$(jq '.cases | length' "$work/gate.json") cases); ONNX Runtime's Python loop: ${loop_s} s"
  gate_times+=("$gate_s")
  loop_times+=("$loop_s")
done
median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
gate_m=$(median "${gate_times[@]}")
loop_m=$(median "${loop_times[@]}")
echo "ONNX Runtime's Python loop: $loop"
echo "medians: gate ${gate_m} s, Python loop ${loop_m} s; ratio $(python3 -c "print(round($gate_m / $loop_m, 2))")"
