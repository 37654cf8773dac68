#!/usr/bin/env bash
# Proves that a printed reproducer reproduces its case: runs the smoke suite on test-broken-relu
# (its Relu lets negative values through, so the cases with Relu fail; a test-only provider,
# loaded as a plugin, so the line must name the runtime too) with a relative --root,
# takes the first reproducer line from stdout, checks that the JSON report holds the same line,
# then runs that line with /bin/sh from / and checks that it fails on exactly that one case.
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
[[ $command == *"--runtime plugin:$plugin"* ]] || fail "the reproducer does not name the plugin"

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
