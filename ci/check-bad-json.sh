#!/usr/bin/env bash
# Drives the onnxgate binary with every JSON file it reads made bad in each way the JSON reader
# (runtime/base/json_reader.h) refuses: a wrong type, a missing field, a huge number, deep nesting
# and invalid UTF-8, in suite.json, an expectations file, a tolerances file, latency thresholds and
# baselines, run reports given to `ops --results` and `expectations update --from`, and the
# runtime registry (adapters/runtimes.json). Each must exit 2 at once, naming the file and the
# JSON path, with no case run and nothing aborted. The two inputs that once aborted the process
# run too, from fuzz/regressions/: an expectations entry whose "status" or "suite" is a number, and
# an adapter error reply whose "code" is a number.
#
# Usage: ci/check-bad-json.sh <onnxgate binary> <repository root>. Exit 0 when every check holds.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root>" >&2
  exit 2
fi
bin=$(realpath "$1")
root=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
checks=0

fail() {
  echo "check-bad-json: $*" >&2
  exit 1
}

# expect_bad <what> <needle>... -- <onnxgate arguments>: exit 2, each needle in the output, no
# case run.
expect_bad() {
  local what=$1
  shift
  local needles=()
  while [[ $1 != -- ]]; do
    needles+=("$1")
    shift
  done
  shift
  local code=0
  timeout 120 "$bin" "$@" >"$work/out" 2>&1 || code=$?
  [[ $code -eq 2 ]] || fail "$what: exited $code, expected 2: $(head -c 2000 "$work/out")"
  for needle in "${needles[@]}"; do
    grep -qF -- "$needle" "$work/out" || fail "$what: no '$needle' in: $(head -c 2000 "$work/out")"
  done
  ! grep -q '^\[1/' "$work/out" || fail "$what: a case ran"
  checks=$((checks + 1))
}

# The bytes of a document nested 100,000 deep, and of one with a byte that is not UTF-8.
deep() { printf '{"a": '; head -c 100000 /dev/zero | tr '\0' '['; head -c 100000 /dev/zero | tr '\0' ']'; printf '}'; }
bad_utf8() { printf '{"name": "\xc0\xaf"}'; }
huge=99999999999999999999

# suite.json, in a tree of its own.
tree=$work/tree
mkdir -p "$tree/suites/bad" "$tree/golden/data/bad" "$tree/conformance"
suite() { printf '%s' "$1" >"$tree/suites/bad/suite.json"; }
case_with() { printf '{"name": "bad", "cases": [{"name": "c", "model": "m.onnx", "golden": "g.h5"%s}]}' "$1"; }
run_bad=(--root "$tree" run --suite bad --ep ref)
suite "$(case_with ', "op_types": "Add"')"
expect_bad "suite.json, wrong type" "suites/bad/suite.json: cases[0].op_types: expected an array, got \"Add\"" -- "${run_bad[@]}"
suite '{"name": "bad", "cases": [{"name": "c", "golden": "g.h5"}]}'
expect_bad "suite.json, missing field" "suite.json: cases[0].model: required field is missing" -- "${run_bad[@]}"
suite "$(case_with ", \"opset_imports\": {\"\": $huge}")"
expect_bad "suite.json, huge number" "suite.json: cases[0].opset_imports[\"\"]: expected an integer, got 1e+20" -- "${run_bad[@]}"
deep >"$tree/suites/bad/suite.json"
expect_bad "suite.json, deep nesting" "suite.json: brackets nest deeper than 64 levels" -- "${run_bad[@]}"
bad_utf8 >"$tree/suites/bad/suite.json"
expect_bad "suite.json, invalid UTF-8" "suite.json: invalid UTF-8 at byte 10" -- "${run_bad[@]}"
echo "suite.json: refused"

# An expectations file (gate --expectations-dir), and a tolerances file (--tolerances).
mkdir -p "$work/exp"
gate_bad=(--root "$root" gate --suite smoke --ep ref --expectations-dir "$work/exp")
entry() { printf '{"entries": [{"case": "x", "status": "xfail", "reason": "r"%s}]}' "$1" >"$work/exp/ref.json"; }
entry ', "review": "yes"'
expect_bad "expectations, wrong type" "ref.json: entries[0].review: expected true or false, got \"yes\"" -- "${gate_bad[@]}"
printf '{"entries": [{"case": "x", "status": "xfail"}]}' >"$work/exp/ref.json"
expect_bad "expectations, missing field" "ref.json: entries[0].reason: is missing" -- "${gate_bad[@]}"
entry ", \"min_opset\": $huge"
expect_bad "expectations, huge number" "ref.json: entries[0].min_opset: expected an integer, got 1e+20" -- "${gate_bad[@]}"
deep >"$work/exp/ref.json"
expect_bad "expectations, deep nesting" "ref.json: brackets nest deeper than 64 levels" -- "${gate_bad[@]}"
bad_utf8 >"$work/exp/ref.json"
expect_bad "expectations, invalid UTF-8" "ref.json: invalid UTF-8" -- "${gate_bad[@]}"
# The inputs that once aborted `gate` (terminate ... type_error.302, exit 134).
for input in "$root"/fuzz/regressions/json_readers/expectations-{status,suite}-number.json; do
  cp "$input" "$work/exp/ref.json"
  field=$(basename "$input" | sed -E 's/expectations-([a-z]+)-number.json/\1/')
  expect_bad "$(basename "$input")" "ref.json: entries[0].$field: expected a string, got 5" -- "${gate_bad[@]}"
done
echo "expectations: refused"

tolerances() { printf '{"format": "onnxgate-tolerances", "format_version": 1, "dtypes": {"float": %s}}' "$1" >"$work/tol.json"; }
run_tol=(--root "$root" run --suite smoke --ep ref --tolerances "$work/tol.json")
tolerances '{"rtol": "big", "why": "w"}'
expect_bad "tolerances, wrong type" "tol.json: dtypes.float.rtol: expected a number, got \"big\"" -- "${run_tol[@]}"
printf '{"format_version": 1}' >"$work/tol.json"
expect_bad "tolerances, missing field" "tol.json: format: expected \"onnxgate-tolerances\", got nothing" -- "${run_tol[@]}"
tolerances '{"rtol": 1e300, "why": "w"}'
expect_bad "tolerances, huge number" "tol.json: dtypes.float: rtol must be a finite number" -- "${run_tol[@]}"
deep >"$work/tol.json"
expect_bad "tolerances, deep nesting" "tol.json: brackets nest deeper than 64 levels" -- "${run_tol[@]}"
bad_utf8 >"$work/tol.json"
expect_bad "tolerances, invalid UTF-8" "tol.json: invalid UTF-8" -- "${run_tol[@]}"
echo "tolerances: refused"

# Latency thresholds and a baseline (bench --compare reads both before it measures anything).
mkdir -p "$work/models"
bench_bad=(--root "$root" bench --models "$work/models" --ep ref --compare
           --baseline "$work/base.json" --thresholds "$work/thr.json")
printf '{"format": "onnxgate-latency-thresholds"}' >"$work/thr.json"
thresholds() { printf '{"format": "onnxgate-latency-thresholds", %s}' "$1" >"$work/thr.json"; }
thresholds '"models": [{"pattern": "a", "threshold": "x"}]'
expect_bad "thresholds, wrong type" "thr.json: models[0].threshold: expected a number, got \"x\"" -- "${bench_bad[@]}"
thresholds '"models": [{"threshold": 0.2}]'
expect_bad "thresholds, missing field" "thr.json: models[0].pattern: required field is missing" -- "${bench_bad[@]}"
thresholds '"default_threshold": 1e300'
expect_bad "thresholds, huge number" "thr.json: default_threshold: a threshold is a ratio" -- "${bench_bad[@]}"
deep >"$work/thr.json"
expect_bad "thresholds, deep nesting" "thr.json: brackets nest deeper than 64 levels" -- "${bench_bad[@]}"
bad_utf8 >"$work/thr.json"
expect_bad "thresholds, invalid UTF-8" "thr.json: invalid UTF-8" -- "${bench_bad[@]}"
echo "thresholds: refused"

printf '{"format": "onnxgate-latency-thresholds"}' >"$work/thr.json"
baseline() {
  printf '{"format": "onnxgate-latency-baseline", "format_version": %s, "ep": "ref", "clock": "wall", "entries": []%s}' \
    "$1" "$2" >"$work/base.json"
}
baseline '"1"' ', "fingerprint": {"cpu_model": "c", "logical_cores": 1, "build_type": "Release"}'
expect_bad "baseline, wrong type" "base.json: format_version: expected an integer, got \"1\"" -- "${bench_bad[@]}"
baseline 1 ''
expect_bad "baseline, missing field" "base.json: fingerprint: required field is missing" -- "${bench_bad[@]}"
baseline 1 ", \"fingerprint\": {\"cpu_model\": \"c\", \"logical_cores\": $huge, \"build_type\": \"R\"}"
expect_bad "baseline, huge number" "base.json: fingerprint.logical_cores: expected an integer, got 1e+20" -- "${bench_bad[@]}"
deep >"$work/base.json"
expect_bad "baseline, deep nesting" "base.json: brackets nest deeper than 64 levels" -- "${bench_bad[@]}"
bad_utf8 >"$work/base.json"
expect_bad "baseline, invalid UTF-8" "base.json: invalid UTF-8" -- "${bench_bad[@]}"
echo "baselines: refused"

# A run report given to `ops --results` and to `expectations update --from`.
report() { printf '{"schema": "onnxgate-run", "schema_version": 1%s}' "$1" >"$work/run.json"; }
check_report() {
  local what=$1
  shift
  expect_bad "ops --results, $what" "$@" -- --root "$root" ops --ep ref --results "$work/run.json"
  mkdir -p "$work/update/conformance/expectations"
  expect_bad "expectations update --from, $what" "$@" -- \
    --root "$work/update" expectations update --from "$work/run.json"
}
good_case='{"suite": "s", "case": "c", "ep": "ref", "verdict": "PASS"'
report ", \"cases\": [$good_case, \"message\": 5}]"
check_report "wrong type" "run.json: cases[0].message: expected a string, got 5"
report ''
check_report "missing field" "run.json: cases: required field is missing"
report ", \"cases\": [$good_case, \"duration_s\": 1}], \"host\": {\"logical_cores\": $huge}"
check_report "huge number" "run.json: host.logical_cores: expected an integer, got 1e+20"
deep >"$work/run.json"
check_report "deep nesting" "run.json: brackets nest deeper than 64 levels"
bad_utf8 >"$work/run.json"
check_report "invalid UTF-8" "run.json: invalid UTF-8"
echo "run reports: refused"

# The runtime registry.
mkdir -p "$tree/adapters"
registry() { printf '%s' "$1" >"$tree/adapters/runtimes.json"; }
run_ort=(--root "$tree" run --suite bad --ep cpu --runtime ort)
registry '{"ort": {"adapter": 5}}'
expect_bad "registry, wrong type" "adapters/runtimes.json: ort.adapter: expected a string, got 5" -- "${run_ort[@]}"
registry '{"ort": {"about": "a"}}'
expect_bad "registry, missing field" "adapters/runtimes.json: ort.adapter: required field is missing" -- "${run_ort[@]}"
registry "{\"ort\": $huge}"
expect_bad "registry, huge number" "adapters/runtimes.json: ort: expected an object, got 1e+20" -- "${run_ort[@]}"
deep >"$tree/adapters/runtimes.json"
expect_bad "registry, deep nesting" "runtimes.json: brackets nest deeper than 64 levels" -- "${run_ort[@]}"
bad_utf8 >"$tree/adapters/runtimes.json"
expect_bad "registry, invalid UTF-8" "runtimes.json: invalid UTF-8" -- "${run_ort[@]}"
echo "runtime registry: refused"

# Adapter replies whose error "code" is a number (the input that once aborted every command using
# the adapter): in the hello, and in a reply to a claims request.
# The adapter plays back a file of frames, then reads its requests until onnxgate closes the pipe
# (plain `cat <file>` may exit before the hello request is written, which is another fault).
regressions=$root/fuzz/regressions/adapter_protocol
printf '#!/bin/sh\ncat "$1"\nexec cat >/dev/null\n' >"$work/replay"
chmod +x "$work/replay"
expect_bad "adapter hello error with a numeric code" \
  "hello: failed: code: expected a string, got 5 (a fault of the adapter)" -- \
  --root "$root" ops --runtime "adapter:$work/replay $regressions/hello_error_code_number" --ep cpu
expect_bad "adapter claims error with a numeric code" \
  "claims of provider 'cpu': failed: code: expected a string, got 5 (a fault of the adapter)" -- \
  --root "$root" ops --runtime "adapter:$work/replay $regressions/error_code_not_string" --ep cpu
echo "adapter error replies with a numeric code: refused"

echo "check-bad-json: $checks checks passed"
