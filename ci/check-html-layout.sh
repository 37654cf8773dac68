#!/usr/bin/env bash
# Renders three HTML reports in headless Chromium at 1280 px and checks their layout with a script
# run in a copy of each page: the page never scrolls sideways; in every case table (failing and
# unsupported/xfail/skipped) and the latency table the verdict and message cells lie inside the
# window; the case column, with its op list, wraps instead of widening the table; the failing
# cases start within one and a half screens; the latency page's EPs row names the EPs of both
# runtimes. The pages:
#   conformance   gate of both node suites on ref and dnnl with no expectations (so the
#                 expected failures, `_expanded` attention cases with ~27 ops among them, fail)
#   side-by-side  gate of a few op families on the built-in runtime and ONNX Runtime, with an
#                 `_expanded` attention case that fails on both
#   latency       bench --against ort of mlp and mobilenet_v2 (few short repetitions: the layout,
#                 not the numbers, is under test)
#
# Usage: ci/check-html-layout.sh <onnxgate binary> <repository root> [screenshot folder]
# With a screenshot folder, also writes conformance-html-1280px.png, side-by-side-html-1280px.png
# and latency-html-1280px.png there (1280 px wide; docs/images/ holds the committed ones).
# Needs chromium (ci/install-deps.sh installs it) and .venv/ort for ONNX Runtime.
set -euo pipefail

if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root> [screenshot folder]" >&2
  exit 2
fi
onnxgate=$(realpath "$1")
root=$(realpath "$2")
shots=${3:+$(realpath "$3")}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "check-html-layout: $*" >&2
  exit 1
}
command -v chromium >/dev/null || fail "chromium is not installed (ci/install-deps.sh installs it)"
readonly width=1280

# Runs a command that writes an HTML report; exit 0 and 1 (a failed gate, a regression) are fine.
make_page() {
  local name=$1
  shift
  local rc=0
  "$onnxgate" --root "$root" "$@" --html "$work/$name.html" >"$work/$name.log" 2>&1 || rc=$?
  ((rc == 0 || rc == 1)) || { tail -20 "$work/$name.log" >&2; fail "$name: exit $rc from $*"; }
  [[ -s $work/$name.html ]] || fail "$name: no HTML report written"
}

mkdir "$work/no-expectations"
make_page conformance gate --suite onnx-node --suite onnx-node-1.12 --ep ref --ep dnnl -j 2 \
  --expectations-dir "$work/no-expectations"
make_page side-by-side gate --suite onnx-node --runtime builtin --runtime ort -j 2 \
  --filter 'test_attention_4d_causal_fp16_expanded' --filter 'test_relu*' --filter 'test_gelu*' \
  --filter 'test_mish*' --filter 'test_bitshift_left_uint8' --expectations-dir "$work/no-expectations"
make_page latency bench --runtime builtin --against ort --model mlp --model mobilenet_v2 \
  --repetitions 9 --min-time 0.01 --warmup 0.01 --rounds 1
# The latency page's EPs row names both sides, not the candidate's EP alone.
eps_row='<tr><th>EPs</th><td>onnxgate/ref against onnxruntime/CPUExecutionProvider</td></tr>'
grep -qF "$eps_row" "$work/latency.html" ||
  fail "latency: no EPs row naming both sides: $(grep -F '<tr><th>EPs</th>' "$work/latency.html")"

# The probe: opens every <details>, measures, and appends its findings to the page as
# <pre id="layout-result">, one "FAIL ..." line per problem and an "ok ..." line of counts.
cat >"$work/layout-probe.js" <<'EOF'
(function () {
  var W = window.innerWidth, problems = [], counts = {rows: 0, expanded: 0, latency: 0};
  function right(el) { return Math.round(el.getBoundingClientRect().right); }
  function inside(el, what) {
    var r = el.getBoundingClientRect();
    if (r.right > W || r.left < 0) {
      problems.push(what + " spans " + Math.round(r.left) + ".." + Math.round(r.right) + " px");
    }
  }
  document.querySelectorAll("details").forEach(function (d) { d.open = true; });
  if (W !== WIDTH) problems.push("window is " + W + " px wide, not WIDTH");
  var page = document.documentElement.scrollWidth;
  if (page > W) problems.push("the page is " + page + " px wide (scrolls sideways)");
  ["failing-table", "other-table"].forEach(function (id) {
    var table = document.getElementById(id);
    if (!table) return;
    table.querySelectorAll(":scope > tbody > tr").forEach(function (tr) {
      var cells = tr.children, bold = cells[0].querySelector("b");
      var name = bold ? bold.textContent : cells[0].textContent;
      ++counts.rows;
      if (/_expanded/.test(name)) ++counts.expanded;
      var caseWidth = Math.round(cells[0].getBoundingClientRect().width);
      if (caseWidth > 0.4 * W) {
        problems.push(id + " " + name + ": the case cell (op list) is " + caseWidth + " px wide");
      }
      inside(cells[2], id + " " + name + ": verdict cell");
      inside(cells[3], id + " " + name + ": message cell");
    });
  });
  var latency = document.getElementById("latency-table");
  if (latency) {
    latency.querySelectorAll("tr").forEach(function (tr) {
      var last = tr.children[tr.children.length - 1];
      var what = tr.classList.contains("msgrow") ? "message" : "verdict";
      if (tr.parentElement.tagName === "TBODY" && what === "verdict") ++counts.latency;
      inside(last, "latency-table row " + tr.rowIndex + ": " + what + " cell");
    });
  }
  var failing = document.getElementById("failing"), top = 0;
  if (failing) {
    top = Math.round(failing.getBoundingClientRect().top + window.scrollY);
    if (top > FAILING_TOP) problems.push("the failing cases start " + top + " px down");
  }
  var out = document.createElement("pre");
  out.id = "layout-result";
  out.textContent = problems.map(function (p) { return "FAIL " + p; }).join("\n") +
      "\nok rows=" + counts.rows + " expanded=" + counts.expanded + " latency=" + counts.latency +
      " page=" + page + " failing_top=" + top + "\n";
  document.body.appendChild(out);
})();
EOF
# The failing cases must start within one and a half windows of 900 px.
sed -i "s/WIDTH/$width/g; s/FAILING_TOP/1350/" "$work/layout-probe.js"

chrome=(chromium --headless --no-sandbox --disable-gpu --hide-scrollbars
        --user-data-dir="$work/profile" --run-all-compositor-stages-before-draw)

# Prints the probe's lines for one page.
probe() {
  local name=$1
  sed 's#</body>#<script src="layout-probe.js"></script></body>#' "$work/$name.html" \
    >"$work/$name-probe.html"
  timeout 60 "${chrome[@]}" --window-size=$width,900 --virtual-time-budget=2000 \
    --dump-dom "file://$work/$name-probe.html" >"$work/$name-dom.html" 2>"$work/chromium.log" ||
    { tail -20 "$work/chromium.log" >&2; fail "$name: chromium could not load the page"; }
  sed -n '/<pre id="layout-result">/,/<\/pre>/p' "$work/$name-dom.html" |
    sed 's/.*<pre id="layout-result">//; s#</pre>.*##; /^$/d'
}

failed=0
for name in conformance side-by-side latency; do
  result=$(probe "$name")
  [[ -n $result ]] || fail "$name: the probe wrote no result (did the script run?)"
  counts=$(grep '^ok ' <<<"$result") || fail "$name: the probe wrote no counts: $result"
  case $name in
    conformance | side-by-side)
      [[ $counts =~ rows=([0-9]+)\ expanded=([0-9]+) ]] &&
        ((BASH_REMATCH[1] > 0 && BASH_REMATCH[2] > 0)) ||
        fail "$name: no failing _expanded case to check ($counts)" ;;
    latency)
      [[ $counts =~ latency=([0-9]+) ]] && ((BASH_REMATCH[1] >= 2)) ||
        fail "$name: the latency table has fewer than 2 records ($counts)" ;;
  esac
  if grep -q '^FAIL ' <<<"$result"; then
    grep '^FAIL ' <<<"$result" | head -12 | sed "s/^FAIL /check-html-layout: $name: /" >&2
    echo "check-html-layout: $name: $(grep -c '^FAIL ' <<<"$result") problem(s)" >&2
    failed=1
  fi
  echo "check-html-layout: $name: ${counts#ok }"
done
((failed == 0)) || fail "a page does not fit $width px"

if [[ -n $shots ]]; then
  mkdir -p "$shots"
  # Heights that hold each page's first sections and keep each PNG well under 400 KB.
  for shot in conformance:1400 side-by-side:1600 latency:900; do
    name=${shot%:*}
    timeout 60 "${chrome[@]}" --window-size=$width,${shot#*:} \
      --screenshot="$shots/$name-html-${width}px.png" "file://$work/$name.html" \
      >>"$work/chromium.log" 2>&1 || { tail -20 "$work/chromium.log" >&2; fail "$name: no screenshot"; }
  done
  echo "check-html-layout: screenshots in $shots"
fi
echo "check-html-layout: 3 pages fit $width px"
