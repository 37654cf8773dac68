#!/usr/bin/env bash
# A candidate judged against the last release's report: gates the smoke and onnx-node suites on
# ref once as "the release", then again with --against-report. Unchanged, the gate passes with
# nothing worse. Against a release report edited so that a case the candidate fails had passed,
# the gate fails (exit 1, gate.passed false, one case worse) although every expectation is met,
# and `onnxgate diff-reports` names that case and exits 1 too.
#
# Usage: ci/check-against-release.sh <onnxgate binary> <repository root>; needs jq.
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root>" >&2
  exit 2
fi
bin=$(realpath "$1")
root=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gate=(--root "$root" gate --suite smoke --suite onnx-node --ep ref -j 2)
fail() { echo "check-against-release: $*" >&2; exit 1; }

"$bin" "${gate[@]}" --json "$work/release.json" >/dev/null
rc=0
"$bin" "${gate[@]}" --against-report "$work/release.json" --json "$work/same.json" \
  >"$work/same.out" || rc=$?
[[ $rc == 0 ]] || fail "an unchanged candidate exits $rc"
[[ $(jq -c .gate.against_report.worse "$work/same.json") == 0 ]] || fail "unchanged: worse is not 0"

# The release passed a case the candidate fails (as expected by ref.json): that is worse.
case_id=$(jq -r '[.cases[] | select(.outcome == "FAIL")][0] | "\(.suite)/\(.case)"' \
  "$work/release.json")
jq --arg id "$case_id" '
  .cases |= map(if "\(.suite)/\(.case)" == $id then .outcome = "PASS" | .verdict = "PASS" else . end)
  | .totals = (reduce .cases[] as $c (.totals | map_values(0); .[$c.verdict] += 1))' \
  "$work/release.json" >"$work/passed-there.json"
rc=0
"$bin" "${gate[@]}" --against-report "$work/passed-there.json" --json "$work/worse.json" \
  >"$work/worse.out" || rc=$?
[[ $rc == 1 ]] || fail "a candidate worse than the release exits $rc, not 1"
[[ $(jq -c .gate.passed "$work/worse.json") == false ]] || fail "gate.passed is not false"
[[ $(jq -c .gate.against_report.worse "$work/worse.json") == 1 ]] || fail "worse is not 1"
grep -q "PASS -> FAIL  $case_id \[ref\]" "$work/worse.out" || fail "the console does not name $case_id"
rc=0
"$bin" diff-reports "$work/passed-there.json" "$work/worse.json" >"$work/diff.out" || rc=$?
[[ $rc == 1 ]] || fail "diff-reports exits $rc, not 1"
grep -q "$case_id" "$work/diff.out" || fail "diff-reports does not name $case_id"
echo "against the release: unchanged passes; $case_id worse than the release fails the gate"
