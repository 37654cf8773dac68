#!/usr/bin/env bash
# Proves that `expectations update` writes the file the gate reads, for the built-in runtime
# (<ep>.json) and for a plugin (<runtime name>.<ep>.json): a gate of a few cases fails without a
# file and says none was found, a run's report is turned into the file, and the same gate then
# passes and names that file. Works in a scratch --root that links the repository's suites and
# goldens, so the repository's own expectations are never written.
#
# Usage: ci/check-expectations-update.sh <onnxgate binary> <test plugin .so> <repository root>.
# Needs jq. Exit 0 when every check holds.
set -euo pipefail

if [[ $# -ne 3 ]]; then
  echo "usage: $0 <onnxgate binary> <test plugin .so> <repository root>" >&2
  exit 2
fi
bin=$(realpath "$1")
plugin=$(realpath "$2")
root=$(realpath "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "check-expectations-update: $*" >&2
  exit 1
}
command -v jq >/dev/null || fail "jq is not installed (ci/install-deps.sh installs it)"
mkdir -p "$work/root/conformance/expectations"
ln -s "$root/suites" "$work/root/suites"
ln -s "$root/golden" "$work/root/golden"

# check <name> <expected file> <gate options...>: gate fails with no file, update, gate passes.
check() {
  local name=$1 file=$2
  shift 2
  local gate=("$bin" --root "$work/root" gate --suite onnx-node "$@" -j 2)
  local rc=0
  "${gate[@]}" --json "$work/$name.json" >"$work/$name.out" 2>&1 || rc=$?
  [[ $rc -eq 1 ]] || fail "$name: the gate without expectations exited $rc, expected 1"
  grep -q "no expectations file conformance/expectations/$file: every case must pass" \
    "$work/$name.out" || fail "$name: the console does not say $file is missing"
  [[ $(jq -c '[.gate.passed, .gate.expectations[0].found]' "$work/$name.json") == '[false,false]' ]] ||
    fail "$name: JSON gate: $(jq -c .gate "$work/$name.json")"
  "$bin" --root "$work/root" expectations update --from "$work/$name.json" >"$work/$name.update" ||
    fail "$name: expectations update failed"
  grep -q "^wrote conformance/expectations/$file: " "$work/$name.update" ||
    fail "$name: update said: $(cat "$work/$name.update")"
  "${gate[@]}" --json "$work/$name.json" >"$work/$name.out" 2>&1 ||
    { tail -5 "$work/$name.out" >&2; fail "$name: the gate after the update did not pass"; }
  grep -q "judged by conformance/expectations/$file" "$work/$name.out" ||
    fail "$name: the console does not name $file"
  [[ $(jq -r '.gate.expectations[0].file' "$work/$name.json") == "conformance/expectations/$file" ]] ||
    fail "$name: JSON names $(jq -c '.gate.expectations[0]' "$work/$name.json")"
  echo "$name: update wrote $file, and the gate passes judged by it"
}

# Seeded Bernoulli fails on ref every time (its golden came from another generator); Relu passes.
check builtin ref.json --ep ref --filter 'test_relu' --filter 'test_bernoulli_seed'
# The test plugin is made for the harness's own test suites: these cases are UNRESOLVED on it
# every time, which is all the check needs (a gate that fails until the file predicts them).
check plugin relu-plugin.relu-cpu.json --runtime "plugin:$plugin" --ep relu-cpu \
  --filter 'test_relu' --filter 'test_bernoulli_seed'
