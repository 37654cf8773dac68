#!/usr/bin/env bash
# The main job: installs dependencies, builds, and runs the conformance gate of the built-in
# runtime's ref EP on the ONNX node suite, printing a summary with the conformance matrix and
# writing JUnit, JSON, Markdown and HTML reports to out/ (or $ONNXGATE_OUT).
# Exit code: 0 gate passed, 1 gate failed, 2 usage or infrastructure error.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${ONNXGATE_OUT:-$root/out}
bash "$root/ci/install-deps.sh"
bash "$root/ci/build.sh"
mkdir -p "$out"
"${ONNXGATE_BUILD_DIR:-$root/build}/harness/onnxgate" --root "$root" gate \
  --suite "${ONNXGATE_SUITE:-onnx-node}" --ep ref -j "$(nproc)" \
  --junit "$out/conformance.xml" --json "$out/conformance.json" \
  --markdown "$out/conformance.md" --html "$out/conformance.html"
