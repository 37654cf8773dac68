#!/usr/bin/env bash
# A release and two candidates, each a build of the built-in runtime loaded as a plugin, gated on
# the smoke and onnx-node suites. The release is libonnxgate_builtin_plugin.so on ref. The broken
# candidate is the test providers' plugin on test-broken-relu (ref with a Relu that lets negative
# values through): gated with --against-report against the release, it exits 1, and the cases
# worse than the release, the cases that fail its gate and the cases `onnxgate diff-reports`
# lists as worse (console, JSON, Markdown, HTML) are all exactly the cases that use Relu and
# passed in the release, except the test_range_*_expanded ones (their Relu clamps a count that is
# never negative). Both reports have one EP each, so cases are matched by suite and name. The
# fixed candidate, the same plugin on ref, exits 0 with nothing worse, better or with a larger
# error. Against a release report edited so that one passing output had a tenth of its error,
# that output's case is listed as a larger error, and the gate still passes.
#
# Usage: ci/check-against-release.sh <onnxgate binary> <repository root> <builtin plugin .so>
#        <test providers plugin .so>; needs jq and xmllint.
set -euo pipefail
if [[ $# -ne 4 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root> <builtin plugin .so>" \
       "<test providers plugin .so>" >&2
  exit 2
fi
bin=$(realpath "$1")
root=$(realpath "$2")
release_plugin=$(realpath "$3")
candidate_plugin=$(realpath "$4")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-against-release: $*" >&2; exit 1; }
for tool in jq xmllint; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (ci/install-deps.sh installs it)"
done

# The candidates are judged by the release's expectations, under either EP name, so that only
# what the broken kernel changes can fail the broken candidate's gate.
mkdir "$work/expectations"
cp "$root/conformance/expectations/ref.json" "$work/expectations/ref.json"
cp "$root/conformance/expectations/ref.json" "$work/expectations/test-broken-relu.json"
gate=(--root "$root" gate --suite smoke --suite onnx-node -j 2 -q
      --expectations-dir "$work/expectations")
sorted() { jq -r "$1" "${@:2}" | sort; }

"$bin" "${gate[@]}" --runtime "plugin:$release_plugin" --ep ref --json "$work/release.json" \
  >"$work/release.out" || { cat "$work/release.out" >&2; fail "the release's gate failed"; }

# The broken candidate.
rc=0
"$bin" "${gate[@]}" --runtime "plugin:$candidate_plugin" --ep test-broken-relu \
  --against-report "$work/release.json" --json "$work/broken.json" >"$work/broken.out" || rc=$?
[[ $rc == 1 ]] || { cat "$work/broken.out" >&2; fail "the broken candidate exits $rc, not 1"; }
[[ $(jq -c '.gate.expectations[0].found' "$work/broken.json") == true ]] ||
  fail "the broken candidate was not judged by the release's expectations"
# What the release says: the cases that use Relu and passed, less those whose Relu never sees a
# negative value.
sorted '.cases[] | select(.outcome == "PASS" and (.op_types | index("Relu")))
        | "\(.suite)/\(.case)"' "$work/release.json" | grep -v '^onnx-node/test_range_.*_expanded$' \
  >"$work/expected" || true
(($(wc -l <"$work/expected") >= 4)) || fail "the release has only $(wc -l <"$work/expected") Relu cases"
sorted '.cases[] | select(.verdict != "PASS" and .verdict != "XFAIL") | "\(.suite)/\(.case)"' \
  "$work/broken.json" >"$work/unexpected"
diff "$work/expected" "$work/unexpected" >&2 || fail "the broken candidate's gate fails other cases"
count=$(wc -l <"$work/expected")
[[ $(jq -c '.gate.against_report | [.worse, .better, .margin_grew]' "$work/broken.json") == \
   "[$count,0,0]" ]] ||
  fail "gate.against_report is $(jq -c .gate.against_report "$work/broken.json"), not $count worse"
[[ $(jq -c .gate.passed "$work/broken.json") == false ]] || fail "gate.passed is not false"
while read -r id; do
  grep -qF "PASS -> FAIL  $id [test-broken-relu]" "$work/broken.out" ||
    fail "the gate's console does not name $id as worse"
done <"$work/expected"

rc=0
"$bin" diff-reports "$work/release.json" "$work/broken.json" --json "$work/diff.json" \
  --markdown "$work/diff.md" --html "$work/diff.html" >"$work/diff.out" || rc=$?
[[ $rc == 1 ]] || fail "diff-reports exits $rc, not 1"
sorted '.cases[] | select(.change == "worse") | "\(.suite)/\(.case)"' "$work/diff.json" \
  >"$work/worse"
diff "$work/expected" "$work/worse" >&2 || fail "diff-reports does not list exactly them as worse"
[[ $(jq -c '[(.cases | length), .margin_grew, (.only_before + .only_after | length)]' \
     "$work/diff.json") == "[$count,0,0]" ]] || fail "diff-reports lists other changes"
[[ $(jq -c .targets_matched "$work/diff.json") == '{"after":"test-broken-relu","before":"ref"}' ]] ||
  fail "diff-reports did not match ref with test-broken-relu"
xmllint --noout "$work/diff.html" || fail "the HTML diff is not well-formed"
while read -r id; do
  grep -qF "\`$id [test-broken-relu]\` | PASS | FAIL |" "$work/diff.md" ||
    fail "the Markdown diff does not name $id"
  grep -qF "<code>$id</code>" "$work/diff.html" || fail "the HTML diff does not name $id"
done <"$work/expected"
grep -qF "<h2 id=\"worse\">Worse ($count)</h2>" "$work/diff.html" ||
  fail "the HTML diff has no section of $count worse cases"

# The fixed candidate.
"$bin" "${gate[@]}" --runtime "plugin:$candidate_plugin" --ep ref \
  --against-report "$work/release.json" --json "$work/fixed.json" >"$work/fixed.out" ||
  { cat "$work/fixed.out" >&2; fail "the fixed candidate's gate failed"; }
[[ $(jq -c '.gate.against_report | [.worse, .better, .margin_grew]' "$work/fixed.json") == \
   "[0,0,0]" ]] || fail "fixed: gate.against_report is $(jq -c .gate.against_report "$work/fixed.json")"
"$bin" diff-reports "$work/release.json" "$work/fixed.json" >/dev/null ||
  fail "diff-reports of the release and the fixed candidate does not exit 0"

# A larger error on a case that still passes is listed, not a failure: the release's report
# edited so that one output which uses at least 10% of its tolerance had a tenth of its error.
pick=$(jq -c 'first(.cases[] | select(.outcome == "PASS") | . as $c | .outputs[]
                | select(.passed and .max_abs_error > 0 and
                         ([(if .atol > 0 then .min_passing_atol / .atol else 0 end),
                           (if .rtol > 0 then .min_passing_rtol / .rtol else 0 end)] | max) >= 0.1)
                | {id: "\($c.suite)/\($c.case)", name, set})' "$work/fixed.json")
[[ -n $pick ]] || fail "no passing output uses 10% of its tolerance"
jq --argjson p "$pick" '.cases |= map(if "\(.suite)/\(.case)" == $p.id then
    .outputs |= map(if .name == $p.name and .set == $p.set then .max_abs_error /= 10 else . end)
  else . end)' "$work/release.json" >"$work/tighter.json"
"$bin" "${gate[@]}" --runtime "plugin:$candidate_plugin" --ep ref \
  --against-report "$work/tighter.json" --json "$work/margin.json" >"$work/margin.out" ||
  { cat "$work/margin.out" >&2; fail "a larger error failed the gate"; }
[[ $(jq -c .gate.against_report.margin_grew "$work/margin.json") == 1 ]] ||
  fail "gate.against_report.margin_grew is not 1"
id=$(jq -r .id <<<"$pick")
grep -qF "$id [ref]  $(jq -r .name <<<"$pick") (set $(jq -r .set <<<"$pick")): max abs error" \
  "$work/margin.out" || fail "the gate's console does not list $id's larger error"

echo "against the release: $count Relu case(s) worse on test-broken-relu fail the gate;" \
     "the fixed candidate passes; $id's larger error is listed"
