#!/usr/bin/env bash
# Times the conformance gate of both ONNX node suites (onnx-node and onnx-node-1.12) on ref as
# users run it (worker isolation on, -j 2):
# runs the real command three times and prints each wall time and the median. Needs a build
# (bash ci/build.sh). Usage: ci/time-gate.sh [extra onnxgate gate flags...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${ONNXGATE_BUILD_DIR:-$root/build}/harness/onnxgate
times=()
for i in 1 2 3; do
  start=$(date +%s.%N)
  status=0
  "$bin" --root "$root" gate --suite onnx-node --suite onnx-node-1.12 --ep ref -j 2 "$@" >/dev/null || status=$?
  end=$(date +%s.%N)
  t=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
  printf 'run %d: %.2f s (exit %d)\n' "$i" "$t" "$status"
  times+=("$t")
done
printf '%s\n' "${times[@]}" | sort -g | sed -n 2p | xargs printf 'median: %.2f s over 3 runs of the gate of both node suites on ref, -j 2, worker isolation on\n'
