#!/usr/bin/env bash
# Proves that the plugin ABI carries a runtime without changing a verdict: gates both ONNX node
# suites on ref through `--runtime builtin` and through the built-in runtime built as a plugin
# (`--runtime plugin:<libonnxgate_builtin_plugin.so>`), and requires the same verdict for every
# case, and the same gate exit code.
#
# Usage: ci/check-plugin-verdicts.sh <onnxgate binary> <builtin plugin .so> <repository root>;
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

gate() {  # gate <name> <runtime>
  local rc=0
  "$bin" --root "$root" gate --suite onnx-node --suite onnx-node-1.12 --ep ref \
    -j "$(nproc)" --runtime "$2" --json "$work/$1.json" >"$work/$1.out" 2>&1 || rc=$?
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
}

gate builtin builtin
gate plugin "plugin:$plugin"
echo "builtin: exit $(cat "$work/builtin.rc"), $(wc -l <"$work/builtin.verdicts") cases"
echo "plugin:  exit $(cat "$work/plugin.rc"), $(wc -l <"$work/plugin.verdicts") cases"
jq -r '.runtime | "plugin runtime: \(.name) \(.version)"' "$work/plugin.json"

if ! diff -u "$work/builtin.verdicts" "$work/plugin.verdicts" >"$work/diff"; then
  echo "check-plugin-verdicts: verdicts differ between builtin and the plugin:" >&2
  head -n 40 "$work/diff" >&2
  exit 1
fi
if [[ $(cat "$work/builtin.rc") != "$(cat "$work/plugin.rc")" ]]; then
  echo "check-plugin-verdicts: the gates exited differently" >&2
  tail -n 20 "$work/plugin.out" >&2
  exit 1
fi
[[ -s $work/builtin.verdicts ]] || { echo "check-plugin-verdicts: no cases ran" >&2; exit 1; }
echo "every verdict matches"
