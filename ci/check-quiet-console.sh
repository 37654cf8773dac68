#!/usr/bin/env bash
# A green gate of both ONNX node suites on ONNX Runtime keeps its console short, and what the
# runtime logs is kept with the case instead: the gate's stdout and stderr together (not a
# terminal, as in CI) are at most 15 lines without -v, none of them a line ORT logged, and the
# JSON report holds ORT's log lines for a case whose load logs an error (test_gru_batchwise)
# as that case's runtime_log. Also: `list --json` prints the suite's cases as JSON that jq reads.
#
# Usage: ci/check-quiet-console.sh <onnxgate binary> <repository root>; needs jq and the ORT
# adapter's environment (.venv/ort, made by ci/install-deps.sh). Exit 0 when all hold.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root>" >&2
  exit 2
fi
bin=$(realpath "$1")
root=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-quiet-console: $*" >&2; exit 1; }
readonly max_lines=15 logging_case=test_gru_batchwise

"$bin" --root "$root" list --suite onnx-node --json >"$work/list.json"
jq -e '.suite == "onnx-node" and .case_count == (.cases | length) and .case_count > 1000
       and (.cases[0] | has("case") and has("op_types") and has("opset"))' "$work/list.json" \
  >/dev/null || fail "list --json: $(head -c 300 "$work/list.json")"

rc=0
"$bin" --root "$root" gate --suite onnx-node --suite onnx-node-1.12 --runtime ort -j2 \
  --json "$work/run.json" >"$work/console" 2>&1 </dev/null || rc=$?
lines=$(wc -l <"$work/console")
echo "gate exit $rc, $lines console line(s):"
cat "$work/console"
[[ $rc -eq 0 ]] || fail "the gate exited with $rc, not 0"
((lines <= max_lines)) || fail "$lines console lines, more than $max_lines"
# ORT's own log lines start "<date> [E:onnxruntime:..." (or [W:...); none may pass through.
if grep -Eq '\[[EWIV]:onnxruntime' "$work/console"; then
  fail "ONNX Runtime's log reached the console: $(grep -Em1 '\[[EWIV]:onnxruntime' "$work/console")"
fi
log=$(jq -r --arg c "$logging_case" \
  '[.cases[] | select(.case == $c) | .runtime_log // ""] | join("")' "$work/run.json")
[[ -n $log ]] || fail "the JSON report holds no runtime_log for $logging_case"
grep -q 'onnxruntime' <<<"$log" || fail "the runtime_log of $logging_case is not ORT's: $log"
echo "runtime_log of $logging_case: $(head -c 200 <<<"$log")"
echo "check-quiet-console: OK"
