#!/usr/bin/env bash
# Gates a slice of onnx-node (Relu, LeakyRelu, Gelu, Mish, Softmax and BitShift cases) on five
# runtime/EP columns that every CI machine has, in three reports: the built-in runtime on ref and
# dnnl; the test providers' plugin on test-broken-relu (ref with a Relu that lets negative values
# through); ONNX Runtime on CPUExecutionProvider and on AzureExecutionProvider+CPUExecutionProvider
# with fallback forbidden (every node falls back, so every case is UNSUPPORTED). Then `onnxgate
# matrix` over the three: its JSON has the five columns, test_relu differs (PASS on ref, FAIL on
# test-broken-relu) and Relu v14 is an op version that differs; a report given twice, a file that
# is not a run report and a missing file are exit 2 naming the file. Last, the page: well-formed
# XML, and in headless Chromium at 1280 px five column headers inside the window and sticky, no
# sideways scroll, the last cell of every row of the grid and of the differing cases inside it.
#
# Usage: ci/check-compat-matrix.sh <onnxgate binary> <repository root> <test providers plugin .so>
# Needs jq, xmllint, chromium (ci/install-deps.sh installs them) and .venv/ort for ONNX Runtime.
set -euo pipefail

if [[ $# -ne 3 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root> <test providers plugin .so>" >&2
  exit 2
fi
onnxgate=$(realpath "$1")
root=$(realpath "$2")
plugin=$(realpath "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "check-compat-matrix: $*" >&2
  exit 1
}
for tool in jq xmllint chromium; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (ci/install-deps.sh installs it)"
done

slice=(--suite onnx-node --filter 'test_relu*' --filter 'test_leakyrelu*' --filter 'test_gelu*'
       --filter 'test_mish*' --filter 'test_softmax_axis_*' --filter 'test_bitshift_left_uint8'
       -j 2 -q)
# gate <name> <arguments...>: writes $work/<name>.json; a failed gate (exit 1) is a result too.
gate() {
  local name=$1 rc=0
  shift
  "$onnxgate" --root "$root" gate "${slice[@]}" "$@" --json "$work/$name.json" \
    >"$work/$name.log" 2>&1 || rc=$?
  ((rc == 0 || rc == 1)) || { tail -20 "$work/$name.log" >&2; fail "$name: gate exited $rc"; }
}
gate builtin --runtime builtin --ep ref --ep dnnl
gate broken --runtime "plugin:$plugin" --ep test-broken-relu
gate ort --runtime ort --ep CPUExecutionProvider \
  --ep AzureExecutionProvider+CPUExecutionProvider --fallback forbid

reports=(--report "$work/builtin.json" --report "$work/broken.json" --report "$work/ort.json")
"$onnxgate" matrix "${reports[@]}" --json "$work/matrix.json" --html "$work/matrix.html" \
  >"$work/matrix.log" 2>&1 || { cat "$work/matrix.log" >&2; fail "matrix did not exit 0"; }

json=$work/matrix.json
azure=onnxruntime/AzureExecutionProvider+CPUExecutionProvider
expected=("onnxgate/ref" "onnxgate/dnnl" "onnxgate/test-broken-relu"
          "onnxruntime/CPUExecutionProvider" "$azure")
columns=$(jq -r '.columns[].name' "$json")
[[ $columns == "$(printf '%s\n' "${expected[@]}")" ]] || fail "JSON columns: $columns"
# test_relu's outcome per column, as {"<column>": "<outcome>"}.
relu=$(jq -c '. as $m | .differing_cases[] | select(.suite == "onnx-node" and .case == "test_relu")
  | [range(0; $m.columns | length) as $i | {($m.columns[$i].name): .outcomes[$i].outcome}]
  | add' "$json")
[[ -n $relu ]] || fail "test_relu is not among the differing cases"
outcome() { jq -r --arg c "$1" '.[$c]' <<<"$relu"; }
[[ $(outcome onnxgate/ref) == PASS && $(outcome onnxgate/test-broken-relu) == FAIL &&
   $(outcome "$azure") == UNSUPPORTED ]] || fail "test_relu's outcomes: $relu"
[[ $(jq '[.rows[] | select(.op == "Relu" and .since_version == 14 and .differs)] | length' \
     "$json") == 1 ]] || fail "Relu v14 is not an op version that differs"
[[ $(jq '.cases_differing == (.differing_cases | length) and .cases_differing > 0' \
     "$json") == true ]] || fail "cases_differing disagrees with differing_cases"
# Every column ran every case of the slice.
[[ $(jq '[.columns[].cases] | unique | length' "$json") == 1 ]] ||
  fail "the columns hold different case counts: $(jq -c '[.columns[].cases]' "$json")"

# Bad input: exit 2 naming the file.
bad() {  # bad <name> <expected text> <matrix arguments...>
  local name=$1 text=$2 rc=0
  shift 2
  "$onnxgate" matrix "$@" >"$work/$name.out" 2>&1 || rc=$?
  [[ $rc == 2 ]] && grep -qF -- "$text" "$work/$name.out" ||
    fail "$name: exit $rc, $(cat "$work/$name.out")"
}
cp "$work/builtin.json" "$work/builtin-again.json"
bad twice "builtin-again.json: the column onnxgate/ref is also in $work/builtin.json" \
  "${reports[@]}" --report "$work/builtin-again.json"
bad not-a-run "$work/matrix.json" --report "$work/builtin.json" --report "$work/matrix.json"
bad missing "$work/nope.json" --report "$work/nope.json"

xmllint --noout "$work/matrix.html" || fail "the page is not well-formed"

# The page at 1280 px. The probe appends its findings as <pre id="layout-result">.
cat >"$work/probe.js" <<'EOF'
(function () {
  var W = window.innerWidth, problems = [];
  function inside(el, what) {
    var r = el.getBoundingClientRect();
    if (r.width <= 0 || r.right > W || r.left < 0) {
      problems.push(what + " spans " + Math.round(r.left) + ".." + Math.round(r.right) + " px");
    }
  }
  if (W !== 1280) problems.push("window is " + W + " px wide, not 1280");
  var page = document.documentElement.scrollWidth;
  if (page > W) problems.push("the page is " + page + " px wide (scrolls sideways)");
  var heads = document.querySelectorAll("#compat-grid thead th.col");
  heads.forEach(function (th, i) {
    inside(th, "column header " + i + " (" + th.textContent + ")");
    if (getComputedStyle(th).position !== "sticky") {
      problems.push("column header " + i + " is not sticky");
    }
  });
  var cells = 0;
  var rows = document.querySelectorAll("#compat-grid tbody tr, #differs-table tbody tr");
  rows.forEach(function (tr) {
    var last = tr.children[tr.children.length - 1];
    ++cells;
    inside(last, "row " + tr.rowIndex + " of " + tr.closest("table").id + ": last cell");
  });
  var out = document.createElement("pre");
  out.id = "layout-result";
  out.textContent = problems.map(function (p) { return "FAIL " + p; }).join("\n") +
      "\nok headers=" + heads.length + " rows=" + cells + " page=" + page + "\n";
  document.body.appendChild(out);
})();
EOF
sed 's#</body>#<script src="probe.js"></script></body>#' "$work/matrix.html" >"$work/probe.html"
timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --user-data-dir="$work/profile" --window-size=1280,900 --virtual-time-budget=2000 \
  --dump-dom "file://$work/probe.html" >"$work/dom.html" 2>"$work/chromium.log" ||
  { tail -20 "$work/chromium.log" >&2; fail "chromium could not load the page"; }
result=$(sed -n '/<pre id="layout-result">/,/<\/pre>/p' "$work/dom.html" |
         sed 's/.*<pre id="layout-result">//; s#</pre>.*##; /^$/d')
[[ -n $result ]] || fail "the probe wrote no result (did the script run?)"
if grep -q '^FAIL ' <<<"$result"; then
  grep '^FAIL ' <<<"$result" | head -12 | sed 's/^FAIL /check-compat-matrix: /' >&2
  fail "the page does not fit 1280 px"
fi
counts=$(grep '^ok ' <<<"$result") || fail "the probe wrote no counts: $result"
[[ $counts == *"headers=5 "* ]] || fail "the page has not 5 column headers: $counts"

echo "check-compat-matrix: 5 columns, $(jq .op_versions "$json") op versions" \
     "($(jq .op_versions_differing "$json") differ), $(jq .cases_differing "$json") differing" \
     "case(s); the page fits 1280 px (${counts#ok })"
