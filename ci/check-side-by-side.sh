#!/usr/bin/env bash
# Gates a few op families on the built-in runtime and ONNX Runtime side by side (each against
# its own expectations), checks that every report gives each runtime/EP its own column, and
# renders the HTML report in headless Chromium: the DOM it builds must hold the side-by-side
# tables and the matrix columns of both runtimes, and the screenshot must be a real image.
#
# Usage: ci/check-side-by-side.sh <onnxgate binary> <repository root>. Needs jq, xmllint and
# chromium (ci/install-deps.sh installs them) and .venv/ort for the ORT adapter.
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
  echo "check-side-by-side: $*" >&2
  exit 1
}
for tool in jq xmllint chromium; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (ci/install-deps.sh installs it)"
done

# Relu, Gelu and Mish pass on both; BitShift-28 only on ref (ONNX Runtime loads no IR 14 model,
# and ort.json expects it UNSUPPORTED): the reports must show where the two differ.
"$onnxgate" --root "$root" gate --suite onnx-node --runtime builtin --runtime ort \
  --filter 'test_relu*' --filter 'test_gelu*' --filter 'test_mish*' \
  --filter 'test_bitshift_left_uint8' -j 2 \
  --json "$work/run.json" --html "$work/run.html" --markdown "$work/run.md" \
  --junit "$work/run.xml" >"$work/gate.log" 2>&1 ||
  { cat "$work/gate.log" >&2; fail "the side-by-side gate did not exit 0"; }

json=$work/run.json
[[ $(jq -c '[.runtimes[].label]' "$json") == '["onnxgate","onnxruntime"]' ]] ||
  fail "JSON runtimes: $(jq -c '.runtimes' "$json")"
builtin_cases=$(jq '[.cases[] | select(.runtime == "onnxgate" and .ep == "ref")] | length' "$json")
ort_cases=$(jq '[.cases[] | select(.runtime == "onnxruntime" and .ep == "CPUExecutionProvider")]
                | length' "$json")
total=$(jq '.cases | length' "$json")
((builtin_cases > 0 && builtin_cases == ort_cases && builtin_cases + ort_cases == total)) ||
  fail "JSON cases per runtime: onnxgate $builtin_cases, onnxruntime $ort_cases of $total"
[[ $(jq '[.matrix[] | select(.op == "Gelu" and .runtime == "onnxruntime" and .counts.PASS > 0)]
         | length' "$json") -gt 0 ]] || fail "JSON matrix has no passing Gelu cell for onnxruntime"

for suite in "onnx-node on onnxgate" "onnx-node on onnxruntime"; do
  [[ $(xmllint --xpath "count(/testsuites/testsuite[@name='$suite'])" "$work/run.xml") == 1 ]] ||
    fail "JUnit has no <testsuite> '$suite'"
done
grep -q '^| `onnxruntime/CPUExecutionProvider` | ' "$work/run.md" ||
  fail "Markdown has no totals row for onnxruntime/CPUExecutionProvider"
grep -q '^### Op versions where the results differ' "$work/run.md" ||
  fail "Markdown has no differences section"

chrome=(chromium --headless --no-sandbox --disable-gpu --user-data-dir="$work/profile"
        --window-size=1400,1000)
timeout 120 "${chrome[@]}" --dump-dom "file://$work/run.html" >"$work/dom.html" 2>"$work/chromium.log" ||
  { tail -20 "$work/chromium.log" >&2; fail "chromium could not load the HTML report"; }
dom=$work/dom.html
for needle in 'id="side-by-side-totals"' 'id="side-by-side-differences"' 'id="matrix-grid"' \
              '<td><b>onnxgate/ref</b></td>' '<td><b>onnxruntime/CPUExecutionProvider</b></td>' \
              '<th>onnxruntime/CPUExecutionProvider</th>' '<th class="op">BitShift v28</th>'; do
  grep -qF "$needle" "$dom" || fail "the DOM Chromium built has no $needle"
done
timeout 120 "${chrome[@]}" --screenshot="$work/run.png" "file://$work/run.html" \
  >>"$work/chromium.log" 2>&1 || { tail -20 "$work/chromium.log" >&2; fail "no screenshot"; }
[[ $(head -c 8 "$work/run.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] ||
  fail "the screenshot is not a PNG"
(($(stat -c %s "$work/run.png") > 20000)) || fail "the screenshot is nearly empty"
# Expectations are per runtime: a side-by-side report cannot rewrite one file.
if "$onnxgate" --root "$root" expectations update --from "$json" --ep ref \
     --file "$work/ref.json" >/dev/null 2>"$work/err"; then
  fail "expectations update took a side-by-side report"
fi
grep -q "holds 2 runtimes side by side" "$work/err" || fail "expectations update: $(cat "$work/err")"
[[ ! -e $work/ref.json ]] || fail "expectations update wrote a file from a side-by-side report"

# A --runtime-option belongs to the --runtime before it: each runtime refuses a key it does not
# know, so the one that names it in its error is the one that got it.
one_case=(--root "$root" run --suite onnx-node --filter test_relu)
if "$onnxgate" "${one_case[@]}" --runtime builtin --runtime ort --runtime-option bogus=1 \
     >/dev/null 2>"$work/err"; then
  fail "a runtime option ORT does not know was accepted"
fi
grep -q "unknown runtime option 'bogus'; the ONNX Runtime adapter takes" "$work/err" ||
  fail "the option after --runtime ort did not reach ORT: $(cat "$work/err")"
if "$onnxgate" "${one_case[@]}" --runtime builtin --runtime-option bogus=1 --runtime ort \
     >/dev/null 2>"$work/err"; then
  fail "a runtime option the built-in runtime does not know was accepted"
fi
grep -q "built-in runtime takes no runtime options; got 'bogus'" "$work/err" ||
  fail "the option after --runtime builtin did not reach it: $(cat "$work/err")"
# An EP that no runtime offers is a usage error, not a silent default.
set +e
"$onnxgate" "${one_case[@]}" --runtime builtin --runtime ort --ep nope >/dev/null 2>"$work/err"
rc=$?
set -e
[[ $rc == 2 ]] && grep -q "unknown EP 'nope'" "$work/err" ||
  fail "--ep nope side by side: exit $rc, $(cat "$work/err")"

echo "check-side-by-side: $builtin_cases case(s) on each runtime; reports and Chromium agree"
