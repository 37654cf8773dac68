#!/usr/bin/env bash
# One --ep target with a provider priority list, and --fallback judged the same for every
# runtime: the built-in runtime on dnnl+ref and ONNX Runtime on AzureExecutionProvider+
# CPUExecutionProvider (every node falls back to CPU), under warn (a summary line, a Markdown and
# an HTML section, `fallbacks` in the JSON report) and forbid (UNSUPPORTED naming the node); a
# malformed or unknown list is exit 2 naming it; `ops --results` of an ORT report fills the table
# from the results alone and warns on an EP the report does not have.
#
# Usage: ci/check-ep-targets.sh <onnxgate binary> <repository root>. Needs jq and .venv/ort.
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
  echo "check-ep-targets: $*" >&2
  exit 1
}
command -v jq >/dev/null || fail "jq is not installed (ci/install-deps.sh installs it)"

# run <name> <expected exit code> <onnxgate arguments...>: output in $work/<name>.out
run() {
  local name=$1 want=$2 rc=0
  shift 2
  "$onnxgate" --root "$root" "$@" >"$work/$name.out" 2>&1 || rc=$?
  [[ $rc == "$want" ]] || { cat "$work/$name.out" >&2; fail "$name exited $rc, not $want"; }
}
says() {  # says <name> <text>
  grep -qF -- "$2" "$work/$1.out" || { cat "$work/$1.out" >&2; fail "$1 does not say '$2'"; }
}

for target in "builtin dnnl+ref ref" "ort AzureExecutionProvider+CPUExecutionProvider CPUExecutionProvider"; do
  read -r runtime ep second <<<"$target"
  run "warn-$runtime" 0 run --suite smoke --runtime "$runtime" --ep "$ep" --fallback warn -j 2 \
    --json "$work/$runtime.json" --markdown "$work/$runtime.md" --html "$work/$runtime.html"
  says "warn-$runtime" "Fallback on $ep, "
  grep -qF '### Fallback' "$work/$runtime.md" || fail "$runtime: no Fallback section in Markdown"
  grep -qF 'id="fallback"' "$work/$runtime.html" || fail "$runtime: no Fallback section in HTML"
  [[ $(jq --arg ep "$ep" '[.cases[] | select(.ep == $ep)] | length' "$work/$runtime.json") -gt 0 ]] ||
    fail "$runtime: the JSON report has no case labelled $ep"
  [[ $(jq --arg s "$second" '[.cases[].fallbacks // [] | .[] | select(.ep == $s)] | length' \
    "$work/$runtime.json") -gt 0 ]] || fail "$runtime: no fallback node on $second in the JSON"

  run "forbid-$runtime" 1 run --suite smoke --runtime "$runtime" --ep "$ep" --fallback forbid \
    -j 2 --json "$work/$runtime-forbid.json"
  [[ $(jq '[.cases[] | select(.verdict == "UNSUPPORTED")] | length' \
    "$work/$runtime-forbid.json") -gt 0 ]] || fail "$runtime: forbid made nothing UNSUPPORTED"
  [[ $(jq '[.cases[] | select(.verdict == "PASS" and (.fallbacks // [] | length) > 0)] | length' \
    "$work/$runtime-forbid.json") == 0 ]] || fail "$runtime: a case with fallback nodes passed"
done

# One provider of ONNX Runtime: nothing falls back, warn and forbid both gate clean.
for policy in warn forbid; do
  run "ort-cpu-$policy" 0 gate --suite smoke --runtime ort --ep CPUExecutionProvider \
    --fallback "$policy" -j 2
done

run empty-part 2 run --suite smoke --ep 'dnnl++ref'
says empty-part "--ep 'dnnl++ref': part 2 of 3 is empty"
run unknown 2 run --suite smoke --ep 'dnnl+cuda'
says unknown "unknown EP 'cuda' in --ep 'dnnl+cuda'"
run bench-unknown 2 bench --ep 'dnnl+cuda' --model 'mlp*'
says bench-unknown "unknown EP 'cuda' in --ep 'dnnl+cuda'"

run ops-ort 0 ops --runtime ort --results "$work/ort.json" --ep "$ep"
says ops-ort "from the results alone"
run ops-ref 0 ops --ep ref --results "$work/ort.json"
says ops-ref "has no case on EP 'ref'"
echo "check-ep-targets: lists, warn, forbid and ops --results behave on builtin and ort"
