#!/usr/bin/env bash
# The commands on users' own models survive the code they run. With the test providers' plugin
# (test-crash dies with SIGSEGV in Relu, test-hang never returns from it) and a model whose Loop
# never ends on ref, each of diff, sweep, record and check-model --target-opset must end within
# its --timeout with the exit code docs/own-models.md gives and a message naming the run and
# what happened, write the reports it writes (or none at all, never half), and never die itself;
# inputs past --memory-limit are an error saying so.
#
# Usage: ci/check-model-faults.sh <onnxgate binary> <test providers plugin .so>. Exit 0 when
# every check holds.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <onnxgate binary> <test providers plugin>" >&2
  exit 2
fi
bin=$(realpath "$1")
plugin=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "check-model-faults: $*" >&2
  exit 1
}

cat >"$work/relu.onnxtxt" <<'MODEL'
<ir_version: 8, opset_import: ["" : 17]>
batch_relu (float[batch, 4] X) => (float[batch, 4] Y) {
  Y = Relu(X)
}
MODEL
cat >"$work/endless.onnxtxt" <<'MODEL'
<ir_version: 8, opset_import: ["" : 17]>
endless (float[batch, 4] X) => (float[batch, 4] Y) {
  keep_going = Constant <value = bool {1}> ()
  Y = Loop ("", keep_going, X) <body = step (int64 i, bool c, float[batch, 4] v) => (bool c_out, float[batch, 4] v_out) {
    c_out = Identity(c)
    v_out = Identity(v)
  }>
}
MODEL

# expect <name> <exit code> <text in stderr or stdout> -- <onnxgate arguments...>
expect() {
  local name=$1 want_rc=$2 says=$3
  shift 4
  local rc=0 start end
  start=$(date +%s)
  "$bin" --root "$work/root" "$@" >"$work/$name.out" 2>"$work/$name.err" || rc=$?
  end=$(date +%s)
  [[ $rc -eq $want_rc ]] ||
    fail "$name exited $rc, expected $want_rc: $(cat "$work/$name.err" "$work/$name.out")"
  grep -qF -- "$says" "$work/$name.err" "$work/$name.out" ||
    fail "$name does not say '$says': $(cat "$work/$name.err" "$work/$name.out")"
  ((end - start < 30)) || fail "$name took $((end - start)) s with a 1 s timeout"
}

mkdir -p "$work/root"
runtime=(--runtime "plugin:$plugin")
for ep in test-crash test-hang; do
  if [[ $ep == test-crash ]]; then what="crashed: killed by SIGSEGV"; else what="timed out after"; fi
  expect "diff-$ep" 2 "the run on plugin:$plugin $ep" -- \
    diff "$work/relu.onnxtxt" "${runtime[@]}" --against builtin --ep "$ep" --against-ep ref \
    --timeout 1 --json "$work/diff-$ep.json"
  grep -qF "$what" "$work/diff-$ep.err" || fail "diff on $ep does not say '$what'"
  [[ ! -e $work/diff-$ep.json ]] || fail "diff on $ep wrote its JSON report"

  expect "sweep-$ep" 1 "DIFFERENT" -- \
    sweep "$work/relu.onnxtxt" "${runtime[@]}" --ep "$ep" --dim batch=1,2 --timeout 1 \
    --json "$work/sweep-$ep.json"
  grep -qF "$what" "$work/sweep-$ep.out" || fail "sweep on $ep does not say '$what'"
  grep -qF '"passed": false' "$work/sweep-$ep.json" || fail "sweep on $ep wrote no JSON report"

  expect "record-$ep" 2 "$what" -- \
    record "$work/relu.onnxtxt" "${runtime[@]}" --ep "$ep" --suite mine --timeout 1
  [[ ! -e $work/root/suites/mine && ! -e $work/root/golden ]] || fail "record on $ep wrote files"

  expect "check-$ep" 1 "conversion to opset 18: " -- \
    check-model "$work/relu.onnxtxt" "${runtime[@]}" --ep "$ep" --target-opset 18 --timeout 1 \
    --json "$work/check-$ep.json"
  grep -qF "$what" "$work/check-$ep.out" || fail "check-model on $ep does not say '$what'"
  grep -qF "$what" "$work/check-$ep.json" || fail "check-model on $ep wrote no JSON report"
done

# The endless Loop on ref, the built-in runtime.
expect diff-loop 2 "timed out after" -- diff "$work/endless.onnxtxt" --timeout 1
expect sweep-loop 1 "timed out after" -- sweep "$work/endless.onnxtxt" --dim batch=1,2 --timeout 1
expect record-loop 2 "timed out after" -- record "$work/endless.onnxtxt" --suite mine --timeout 1
expect check-loop 1 "timed out after" -- check-model "$work/endless.onnxtxt" --target-opset 18 \
  --timeout 1

# Inputs past the memory limit: the worker's allocation fails, not the machine's.
expect diff-memory 2 "ran out of its memory limit of 256 MiB" -- \
  diff "$work/relu.onnxtxt" --dim batch=50000000 --memory-limit 256

# Bad limits are refused before anything runs.
expect bad-timeout 2 "--timeout must be a number of seconds" -- \
  diff "$work/relu.onnxtxt" --timeout 0
expect bad-memory 2 "--memory-limit must be 0 (none) or at least 256 MiB" -- \
  record "$work/relu.onnxtxt" --suite mine --memory-limit 10
echo "check-model-faults: every check holds"
