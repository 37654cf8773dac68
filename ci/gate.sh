#!/usr/bin/env bash
# The main job: installs dependencies, builds, and runs the conformance gate of the built-in
# runtime's ref EP on both ONNX node suites (ONNX 1.23.2's onnx-node and ONNX 1.12's
# onnx-node-1.12), printing a summary with the conformance matrix and writing JUnit, JSON,
# Markdown and HTML reports to out/ (or $ONNXGATE_OUT). $ONNXGATE_SUITE gates one suite instead.
# Exit code: 0 gate passed, 1 gate failed, 2 usage or infrastructure error.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${ONNXGATE_OUT:-$root/out}
bash "$root/ci/install-deps.sh"
bash "$root/ci/build.sh"
mkdir -p "$out"
if [[ -n ${ONNXGATE_SUITE:-} ]]; then
  suites=(--suite "$ONNXGATE_SUITE")
else
  suites=(--suite onnx-node --suite onnx-node-1.12)
fi
"${ONNXGATE_BUILD_DIR:-$root/build}/harness/onnxgate" --root "$root" gate \
  "${suites[@]}" --ep ref -j "$(nproc)" \
  --junit "$out/conformance.xml" --json "$out/conformance.json" \
  --markdown "$out/conformance.md" --html "$out/conformance.html"
