#!/usr/bin/env bash
# The compatibility matrix across runtimes (docs/compatibility-matrix.md): gates both ONNX node
# suites on each runtime/EP that is installed, then builds one matrix of their reports with
# `onnxgate matrix`. The runtimes, in column order:
#   builtin        the built-in runtime on ref and dnnl (one report, two columns)
#   ort            ONNX Runtime on its CPU EP
#   ort-openvino   ONNX Runtime with the OpenVINO EP (--ep OpenVINOExecutionProvider+
#                  CPUExecutionProvider, fallback allowed: the nodes it declines run on the CPU
#                  EP), judged by conformance/expectations/fallback-allowed/
#   openvino       OpenVINO's own runtime
# A runtime that cannot be created here (not in adapters/runtimes.json, or its venv missing) is
# skipped, and the script says so and why. A gate that fails (exit 1) is a result like any other:
# the matrix shows it. Not a CTest: both suites on every runtime take minutes
# (ci/check-compat-matrix.sh is the fast check).
#
# Usage: ci/compat-matrix.sh <output folder> [onnxgate binary, default build/harness/onnxgate]
# (run on this script's repository).
# Writes <output folder>/<runtime>.json (each gate's report), compat-matrix.json,
# compat-matrix.html and, when chromium is installed, compat-matrix-html-1280px.png.
# ORT_OPENVINO_RUNTIME and OPENVINO_RUNTIME replace those runtimes' --runtime (default: their
# registry names), e.g. ORT_OPENVINO_RUNTIME="adapter:<venv>/bin/python adapters/ort/ort_adapter.py".
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 <output folder> [onnxgate binary]" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
onnxgate=$(realpath "${2:-$root/build/harness/onnxgate}")
mkdir -p "$1"
out=$(realpath "$1")

suites=(--suite onnx-node --suite onnx-node-1.12 -j 2 -q)
# name | --runtime | further arguments | the gate's alone
allowed=$root/conformance/expectations/fallback-allowed
targets=(
  "builtin|builtin|--ep ref --ep dnnl|"
  "ort|ort||"
  "ort-openvino|${ORT_OPENVINO_RUNTIME:-ort-openvino}|--ep OpenVINOExecutionProvider+CPUExecutionProvider --fallback warn|--expectations-dir $allowed"
  "openvino|${OPENVINO_RUNTIME:-openvino}||"
)

reports=()
skipped=()
for target in "${targets[@]}"; do
  IFS='|' read -r name runtime extra gate_extra <<<"$target"
  read -r -a args <<<"$extra"
  read -r -a gate_args <<<"$gate_extra"
  # One case first: a runtime that cannot be created is exit 2 with the reason on stderr.
  rc=0
  "$onnxgate" --root "$root" run --suite onnx-node --filter test_abs --runtime "$runtime" \
    "${args[@]}" -q >"$out/$name.probe.log" 2>&1 || rc=$?
  if ((rc == 2)); then
    skipped+=("$name: $(grep -m1 . "$out/$name.probe.log")")
    continue
  fi
  echo "compat-matrix: gating both node suites on $name ($runtime ${args[*]})"
  rc=0
  start=$SECONDS
  "$onnxgate" --root "$root" gate "${suites[@]}" --runtime "$runtime" "${args[@]}" \
    "${gate_args[@]}" --json "$out/$name.json" >"$out/$name.log" 2>&1 || rc=$?
  if ((rc != 0 && rc != 1)); then
    tail -20 "$out/$name.log" >&2
    echo "compat-matrix: $name: gate exited $rc" >&2
    exit 2
  fi
  echo "compat-matrix: $name: gate exit $rc in $((SECONDS - start)) s;" \
       "$(grep -m1 '^Result:' "$out/$name.log" || true)"
  reports+=(--report "$name.json")
done
for line in "${skipped[@]}"; do echo "compat-matrix: skipped $line"; done
((${#reports[@]} > 0)) || { echo "compat-matrix: no runtime could be gated" >&2; exit 2; }

# From the output folder, so that the page names each report by its file name alone.
(cd "$out" && "$onnxgate" matrix "${reports[@]}" --json compat-matrix.json \
  --html compat-matrix.html)

if command -v chromium >/dev/null; then
  profile=$(mktemp -d)
  trap 'rm -rf "$profile"' EXIT
  timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$profile" --run-all-compositor-stages-before-draw --window-size=1280,1400 \
    --screenshot="$out/compat-matrix-html-1280px.png" "file://$out/compat-matrix.html" \
    >"$out/chromium.log" 2>&1 && echo "compat-matrix: screenshot $out/compat-matrix-html-1280px.png"
fi
echo "compat-matrix: $out/compat-matrix.html, $out/compat-matrix.json"
