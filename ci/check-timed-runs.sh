#!/usr/bin/env bash
# bench --runtime ort times the runs inside ONNX Runtime's adapter (the timed-runs request) and
# says so: timed_by "runtime" and the wall clock in the JSON report, "Timed by the runtime" in
# the Markdown; --timing harness times each run request on onnxgate's side instead; --timing
# runtime with --clock cpu, and with a runtime that offers no timed runs (builtin), is refused.
# Never a time. Skips (exit 77) where .venv/ort is missing.
#
# Usage: ci/check-timed-runs.sh <onnxgate binary> <repository root>. Needs jq.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root>" >&2
  exit 2
fi
onnxgate=$(realpath "$1")
root=$(realpath "$2")
if [[ ! -x $root/.venv/ort/bin/python ]]; then
  echo "check-timed-runs: skipped: no .venv/ort (ci/install-deps.sh makes it)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "check-timed-runs: $*" >&2
  exit 1
}
command -v jq >/dev/null || fail "jq is not installed (ci/install-deps.sh installs it)"
"$onnxgate" zoo generate "$work/zoo" --model mlp >/dev/null
short=(--models "$work/zoo" --repetitions 9 --min-time 0.01 --warmup 0.01 --rounds 1)

bench() { # name, then bench's flags
  local name=$1
  shift
  "$onnxgate" --root "$root" bench "${short[@]}" "$@" --json "$work/$name.json" \
    --markdown "$work/$name.md" >"$work/$name.log" 2>&1
}
timing_of() { jq -c '[.latency[] | [.timed_by, .clock]]' "$work/$1.json"; }

bench auto --runtime ort || { cat "$work/auto.log" >&2; fail "bench --runtime ort failed"; }
[[ $(timing_of auto) == '[["runtime","wall"]]' ]] ||
  fail "bench --runtime ort: expected timed_by runtime on the wall clock, got $(timing_of auto)"
grep -q "Timed by the runtime, inside its own process (wall clock): 1" "$work/auto.md" ||
  fail "the Markdown does not say the runtime timed the runs"

bench harness --runtime ort --timing harness ||
  { cat "$work/harness.log" >&2; fail "bench --runtime ort --timing harness failed"; }
[[ $(timing_of harness) == '[["harness","wall"]]' ]] ||
  fail "--timing harness: expected timed_by harness, got $(timing_of harness)"

bench builtin --runtime builtin || { cat "$work/builtin.log" >&2; fail "bench --runtime builtin failed"; }
[[ $(timing_of builtin) == '[["harness","wall"]]' ]] ||
  fail "the built-in runtime offers no timed runs: expected timed_by harness, got $(timing_of builtin)"

rc=0
bench cpu --runtime ort --timing runtime --clock cpu || rc=$?
((rc == 2)) || fail "--timing runtime --clock cpu exited $rc, not 2"
grep -q -- "--clock cpu needs --timing harness" "$work/cpu.log" || fail "--clock cpu: $(cat "$work/cpu.log")"

rc=0
bench refused --runtime builtin --timing runtime || rc=$?
((rc != 0)) || fail "--timing runtime on the built-in runtime exited 0"
grep -q "timed runs are not offered" "$work/refused.log" ||
  fail "--timing runtime on the built-in runtime: $(cat "$work/refused.log")"
echo "check-timed-runs: ort timed by the runtime (auto) and by the harness (--timing harness);" \
     "builtin by the harness; --clock cpu and builtin refused with --timing runtime"
