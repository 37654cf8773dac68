#!/usr/bin/env bash
# Drives the onnxgate binary the way a hostile or careless environment does and checks that it
# answers with a clear error or still writes its reports:
#   - stdout closed by the reader (`gate ... | head -1`): the reports are written whole and the
#     exit code is the gate's own (no death by SIGPIPE);
#   - `expectations update --from` a report whose EP is '../../..': refused, nothing written
#     outside conformance/expectations;
#   - numeric options out of range (-j 0, --timeout -1, nan, 1e12, --rtol 1e300): exit 2 naming
#     the option, before any case runs;
#   - a --tolerances file nested 100,000 deep: exit 2 naming the file, no crash;
#   - /dev/zero or a FIFO given as the tolerances file: exit 2 at once, nothing read.
#
# Usage: ci/check-hostile-cli.sh <onnxgate binary> <repository root>; needs jq. Exit 0 when
# every check holds.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root>" >&2
  exit 2
fi
bin=$(realpath "$1")
root=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "check-hostile-cli: $*" >&2
  exit 1
}

# 1. A closed stdout. `head -1` exits after the first line; the gate goes on writing progress.
set +o pipefail
"$bin" --root "$root" gate --suite smoke --ep ref --junit "$work/pipe.xml" --json "$work/pipe.json" \
  2>"$work/pipe.err" | head -1 >/dev/null
rc=${PIPESTATUS[0]}
set -o pipefail
[[ $rc -eq 0 ]] || fail "gate with a closed stdout exited $rc, expected 0: $(cat "$work/pipe.err")"
jq -e '.status == "completed" and (.cases | length) > 0' "$work/pipe.json" >/dev/null ||
  fail "the JSON report of the gate with a closed stdout is missing or incomplete"
grep -q '</testsuites>' "$work/pipe.xml" || fail "the JUnit report is missing or cut short"
echo "closed stdout: exit 0, reports whole ($(jq '.cases | length' "$work/pipe.json") cases)"

# 2. An EP name that climbs out of conformance/expectations.
jq '(.cases[].ep) = "../../.." | .selection.eps = ["../../.."]' "$work/pipe.json" >"$work/evil.json"
mkdir -p "$work/tree/conformance/expectations"
rc=0
"$bin" --root "$work/tree" expectations update --from "$work/evil.json" >"$work/evil.out" 2>&1 ||
  rc=$?
[[ $rc -eq 2 ]] || fail "expectations update from an EP named '../../..' exited $rc, expected 2"
grep -q "EP name '../../..'" "$work/evil.out" || fail "no message naming the EP: $(cat "$work/evil.out")"
[[ -z $(find "$work" -name '*.json' -newer "$work/evil.json" -not -path "$work/evil.json") ]] ||
  fail "a file was written: $(find "$work" -name '*.json' -newer "$work/evil.json")"
echo "EP '../../..': refused, nothing written"

# 3. Numeric options out of range.
expect_usage() {
  local what=$1
  shift
  local code=0
  timeout 60 "$bin" --root "$root" run --suite smoke --ep ref "$@" >"$work/opt.out" 2>&1 || code=$?
  [[ $code -eq 2 ]] || fail "$* exited $code, expected 2: $(cat "$work/opt.out")"
  grep -q -- "$what" "$work/opt.out" || fail "$*: no message naming $what: $(cat "$work/opt.out")"
  ! grep -q '^\[1/' "$work/opt.out" || fail "$*: a case ran"
}
expect_usage "--jobs" -j 0
expect_usage "--timeout" --timeout -1
expect_usage "--timeout" --timeout nan
expect_usage "--timeout" --timeout 1e12
expect_usage "rtol" --rtol 1e300
echo "numeric options: refused"

# 4. A tolerances file nested 100,000 deep.
{
  printf '{"format": "onnxgate-tolerances", "format_version": 1, "dtypes": '
  head -c 100000 /dev/zero | tr '\0' '['
  head -c 100000 /dev/zero | tr '\0' ']'
  printf '}'
} >"$work/deep.json"
expect_usage "deep.json: brackets nest deeper than 64 levels" --tolerances "$work/deep.json"
echo "deep tolerances file: refused"

# 5. Files that never end or never open.
mkfifo "$work/fifo.json"
expect_usage "not a tolerances file" --tolerances /dev/zero
expect_usage "not a tolerances file" --tolerances "$work/fifo.json"
echo "/dev/zero and a FIFO as the tolerances file: refused"
