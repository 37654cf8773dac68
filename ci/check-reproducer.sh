#!/usr/bin/env bash
# Proves that a printed reproducer reproduces its case: runs the smoke suite on test-broken-relu
# (its Relu lets negative values through, so the cases with Relu fail; a test-only provider,
# loaded as a plugin, so the line must name the runtime too) with a relative --root and options
# that change verdicts (--timeout, --memory-limit, --tolerances), takes the first reproducer line
# from stdout, checks that it carries them and that the JSON report holds the same line, then
# runs that line with /bin/sh from / and checks that it fails on exactly that one case.
# Then a suite of hostile case names (a glob, a leading '-', U+202E and U+200B), each beside the
# case its name would match as a --filter glob: every reproducer runs exactly its own case, and
# no bidi or zero-width character reaches the terminal.
#
# Usage: ci/check-reproducer.sh <onnxgate binary> <repository root> <test providers plugin .so>;
# needs python3. Exit 0 when the reproducer holds.
set -euo pipefail

if [[ $# -ne 3 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root> <test providers plugin .so>" >&2
  exit 2
fi
bin=$(realpath "$1")
root=$(realpath "$2")
plugin=$(realpath "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "check-reproducer: $*" >&2
  exit 1
}

# A relative root, as a developer types it: the reproducer must not depend on this directory.
cd "$(dirname "$root")"
rc=0
"$bin" --root "$(basename "$root")" run --suite smoke --runtime "plugin:$plugin" --ep test-broken-relu \
  --timeout 30 --memory-limit 3072 --tolerances "$(basename "$root")/conformance/tolerances.json" \
  --json "$work/all.json" >"$work/all.out" 2>&1 || rc=$?
[[ $rc -eq 1 ]] || { cat "$work/all.out" >&2; fail "the broken-relu run exited $rc, expected 1"; }

# The summary prints "  FAIL  smoke/<case> [<ep>]" and below it the command, indented by four.
header=$(grep -A2 'reproduce each alone with:' "$work/all.out" | sed -n 2p)
command=$(grep -A2 'reproduce each alone with:' "$work/all.out" | sed -n 3p | sed 's/^    //')
case_name=$(sed -E 's#^ +[A-Z]+ +smoke/([^ ]+) \[.*$#\1#' <<<"$header")
[[ -n $command && -n $case_name && $case_name != "$header" ]] ||
  fail "no reproducer in the output:"$'\n'"$(cat "$work/all.out")"
echo "case: $case_name"
echo "reproducer: $command"
[[ $command == *"--runtime=plugin:$plugin"* ]] || fail "the reproducer does not name the plugin"
for option in "--timeout 30" "--memory-limit 3072" "--tolerances=$root/conformance/tolerances.json"; do
  [[ $command == *" $option"* ]] || fail "the reproducer lacks $option"
done

# python3, not jq: ci/install-deps.sh installs the one and not the other.
json_command=$(python3 -c '
import json, sys
run = json.load(open(sys.argv[1]))
print("\n".join(c.get("reproducer", "") for c in run["cases"]
                if c["case"] == sys.argv[2] and c["ep"] == "test-broken-relu"))
' "$work/all.json" "$case_name")
[[ $json_command == "$command" ]] ||
  fail "the JSON report's reproducer differs: '$json_command' vs printed '$command'"

# Exactly as printed, from another working directory.
rc=0
(cd / && /bin/sh -c "$command") >"$work/one.out" 2>&1 || rc=$?
cat "$work/one.out"
[[ $rc -eq 1 ]] || fail "the reproducer exited $rc, expected 1"
grep -q "^Summary: 1 case(s)" "$work/one.out" || fail "the reproducer did not run exactly one case"
grep -Eq "^\[1/1\] FAIL +smoke/$case_name \[test-broken-relu\]" "$work/one.out" ||
  fail "the reproducer did not fail on smoke/$case_name"

# Again with a JSON report: one case, that case, failing.
rc=0
(cd / && /bin/sh -c "$command --json '$work/one.json'") >/dev/null 2>&1 || rc=$?
[[ $rc -eq 1 ]] || fail "the reproducer with --json exited $rc, expected 1"
one=$(python3 -c '
import json, sys
run = json.load(open(sys.argv[1]))
print(",".join("%s/%s %s %s" % (c["suite"], c["case"], c["ep"], c["verdict"])
               for c in run["cases"]))
' "$work/one.json")
[[ $one == "smoke/$case_name test-broken-relu FAIL" ]] ||
  fail "the reproducer's JSON report does not hold exactly smoke/$case_name: $one"
echo "check-reproducer: OK: the reproducer of smoke/$case_name reproduces it from /"

# Hostile names: a root with suites/names, whose cases all run the smoke suite's activations
# model (it has a Relu, so each fails on test-broken-relu) under names that are globs, options
# and bidi tricks.
names_root=$work/root
mkdir -p "$names_root/suites/names/models" "$names_root/golden/data/smoke" "$names_root/conformance"
cp "$root/suites/smoke/models/activations.onnxtxt" "$names_root/suites/names/models/"
cp "$root/golden/data/smoke/activations.h5" "$names_root/golden/data/smoke/"
python3 - "$root/suites/smoke/suite.json" "$names_root/suites/names/suite.json" <<'PY'
import json, sys
smoke = json.load(open(sys.argv[1]))
template = next(c for c in smoke["cases"] if c["name"] == "activations")
names = ["glob*", "globber", "-leading-dash", "leading-dash", "rlo\u202ex\u200b", "rlox"]
cases = []
for name in names:
    case = dict(template, name=name)
    case["golden"] = "../../golden/data/smoke/activations.h5"
    cases.append(case)
suite = {key: value for key, value in smoke.items() if key != "cases"}
suite.update(name="names", cases=cases)
json.dump(suite, open(sys.argv[2], "w"), indent=1)
PY
rc=0
"$bin" --root "$names_root" run --suite names --runtime "plugin:$plugin" --ep test-broken-relu \
  --json "$work/names.json" >"$work/names.out" 2>&1 || rc=$?
[[ $rc -eq 1 ]] || { cat "$work/names.out" >&2; fail "the hostile-names run exited $rc, expected 1"; }
python3 - "$work/names.out" <<'PY' || fail "a bidi or zero-width character reached the terminal"
import sys
text = open(sys.argv[1], encoding="utf-8").read()
bad = [c for c in text if c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u061c"]
sys.exit(1 if bad or "rlo\\u202ex\\u200b" not in text else 0)
PY
python3 -c '
import json, sys
for c in json.load(open(sys.argv[1]))["cases"]:
    sys.stdout.buffer.write(c["case"].encode() + b"\0" + c["reproducer"].encode() + b"\0")
' "$work/names.json" >"$work/names.list"
checked=0
while IFS= read -r -d '' name && IFS= read -r -d '' line; do
  rc=0
  (cd / && /bin/sh -c "$line --json '$work/one-name.json'") </dev/null >"$work/one-name.out" 2>&1 ||
    rc=$?
  [[ $rc -eq 1 ]] || { cat "$work/one-name.out" >&2; fail "the reproducer '$line' exited $rc, expected 1"; }
  python3 - "$work/one-name.json" "$name" <<'PY' || fail "the reproducer '$line' did not run exactly its case"
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
sys.exit(0 if [(c["suite"], c["case"], c["verdict"]) for c in cases] == [("names", sys.argv[2], "FAIL")] else 1)
PY
  checked=$((checked + 1))
done <"$work/names.list"
[[ $checked -eq 6 ]] || fail "checked $checked reproducers of hostile names, expected 6"
echo "check-reproducer: OK: each of the 6 hostile names' reproducers runs exactly its case"
