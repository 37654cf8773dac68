#!/usr/bin/env bash
# `bench --runtime ort` and `bench --runtime builtin --against ort` on the quick zoo (mlp and
# mobilenet_v2): both run; the comparison measures both runtimes, judges every measurement of
# the candidate against ORT's, and exits 1 exactly when one of them is a regression.
#
# Usage: ci/check-bench-against.sh <onnxgate binary> <repository root>. Needs jq and .venv/ort.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root>" >&2
  exit 2
fi
onnxgate=$(realpath "$1")
root=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "check-bench-against: $*" >&2
  exit 1
}
command -v jq >/dev/null || fail "jq is not installed (ci/install-deps.sh installs it)"

"$onnxgate" --root "$root" bench --runtime ort --quick --json "$work/ort.json" \
  >"$work/ort.log" 2>&1 || { cat "$work/ort.log" >&2; fail "bench --runtime ort did not exit 0"; }
[[ $(jq -r '.runtime.name' "$work/ort.json") == onnxruntime ]] ||
  fail "bench --runtime ort reports runtime $(jq -c '.runtime' "$work/ort.json")"
[[ $(jq '[.latency[] | select(.ep == "CPUExecutionProvider" and .median_ms > 0)] | length' \
      "$work/ort.json") == 2 ]] || fail "bench --runtime ort did not measure mlp and mobilenet_v2"

set +e
"$onnxgate" --root "$root" bench --runtime builtin --against ort --quick \
  --json "$work/against.json" >"$work/against.log" 2>&1
rc=$?
set -e
((rc == 0 || rc == 1)) || { cat "$work/against.log" >&2; fail "bench --against exited $rc"; }
grep -q "candidate onnxgate against onnxruntime, measured in alternating turns" "$work/against.log" ||
  fail "bench --against did not say what it compares"
json=$work/against.json
[[ $(jq -c '[.runtimes[].label]' "$json") == '["onnxgate","onnxruntime"]' ]] ||
  fail "runtimes: $(jq -c '.runtimes' "$json")"
[[ $(jq '[.latency[] | select(.runtime == "onnxgate" and .baseline_median_ms > 0
                              and .verdict != "no-baseline")] | length' "$json") == 2 ]] ||
  fail "not every measurement of the candidate was judged against ORT's: $(jq -c '.latency' "$json")"
regressions=$(jq '[.latency[] | select(.verdict == "regression")] | length' "$json")
expected_rc=0
((regressions == 0)) || expected_rc=1
((rc == expected_rc)) || fail "exit $rc with $regressions regression(s)"
# Both runtimes measured each model side by side in each of the 3 rounds, starting in turns.
a=onnxgate/ref b=onnxruntime/CPUExecutionProvider
[[ $(grep -c "on $a beside $b, 1 thread:" "$work/against.log") == 4 &&
   $(grep -c "on $b beside $a, 1 thread:" "$work/against.log") == 2 ]] ||
  fail "the runtimes were not measured side by side, 2 models x 3 rounds in turns"
echo "check-bench-against: ort measured alone; builtin against ort: exit $rc," \
     "$regressions regression(s) of 2"
