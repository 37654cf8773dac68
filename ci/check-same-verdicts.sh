#!/usr/bin/env bash
# Proves that neither the plugin ABI nor the isolation mode changes a verdict: gates both ONNX
# node suites on ref through `--runtime builtin` and through the built-in runtime built as a
# plugin (`--runtime plugin:<libonnxgate_builtin_plugin.so>`), each with `--isolation worker`
# (long-lived workers) and `--isolation case` (a process per case), and requires the same verdict
# for every case in all four, and the same gate exit code.
#
# Usage: ci/check-same-verdicts.sh <onnxgate binary> <builtin plugin .so> <repository root>;
# needs jq. Exit 0 when every verdict matches.
set -euo pipefail

if [[ $# -ne 3 ]]; then
  echo "usage: $0 <onnxgate binary> <builtin plugin .so> <repository root>" >&2
  exit 2
fi
bin=$(realpath "$1")
plugin=$(realpath "$2")
root=$(realpath "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gate() {  # gate <name> <runtime> <isolation>
  local rc=0 start end
  start=$(date +%s.%N)
  "$bin" --root "$root" gate --suite onnx-node --suite onnx-node-1.12 --ep ref \
    -j "$(nproc)" --runtime "$2" --isolation "$3" --json "$work/$1.json" >"$work/$1.out" 2>&1 ||
    rc=$?
  end=$(date +%s.%N)
  echo "$rc" >"$work/$1.rc"
  # A case that ref.json marks nondeterministic (an unseeded random draw) passes by chance in
  # about one run in 164 and is XFAIL otherwise; either is its expected verdict, so both read
  # "expected-nondeterministic" here and a chance pass on one side is no difference.
  jq -r --slurpfile exp "$root/conformance/expectations/ref.json" '
    ([$exp[0].entries[] | select(.status == "nondeterministic") | "\(.suite)/\(.case)"]) as $nd
    | .cases[]
    | "\(.suite)/\(.case)" as $id
    | if ($nd | index($id)) != null and (.verdict == "PASS" or .verdict == "XFAIL")
      then "\($id) [\(.ep)] expected-nondeterministic"
      else "\($id) [\(.ep)] \(.verdict) \(.outcome)" end' "$work/$1.json" |
    sort >"$work/$1.verdicts"
  printf '%-15s exit %s, %s cases, isolation %s, %.1f s\n' "$1:" "$rc" \
    "$(wc -l <"$work/$1.verdicts")" "$(jq -r .isolation "$work/$1.json")" \
    "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
}

gate builtin-worker builtin worker
gate builtin-case builtin case
gate plugin-worker "plugin:$plugin" worker
gate plugin-case "plugin:$plugin" case
jq -r '.runtime | "plugin runtime: \(.name) \(.version)"' "$work/plugin-worker.json"

[[ -s $work/builtin-worker.verdicts ]] || { echo "check-same-verdicts: no cases ran" >&2; exit 1; }
status=0
for other in builtin-case plugin-worker plugin-case; do
  if ! diff -u "$work/builtin-worker.verdicts" "$work/$other.verdicts" >"$work/diff"; then
    echo "check-same-verdicts: verdicts differ between builtin-worker and $other:" >&2
    head -n 40 "$work/diff" >&2
    status=1
  fi
  if [[ $(cat "$work/builtin-worker.rc") != "$(cat "$work/$other.rc")" ]]; then
    echo "check-same-verdicts: the gates of builtin-worker and $other exited differently" >&2
    tail -n 20 "$work/$other.out" >&2
    status=1
  fi
done
[[ $status -eq 0 ]] && echo "every verdict matches in all four"
exit "$status"
