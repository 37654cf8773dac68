#!/usr/bin/env bash
# Checks the CTest labels of the registered suites in a build folder: every label is a single
# label (no compound "a;b" strings), and `ctest -L '^op:Conv$'` selects exactly the tests whose
# cases use Conv: each selected test has the label op:Conv, and every test with that label is
# selected. Usage: ci/check-ctest-labels.sh <build dir>. Exit 0 when all hold.
set -euo pipefail
build=${1:?usage: ci/check-ctest-labels.sh <build dir>}
cd "$build"
fail() { echo "check-ctest-labels: $*" >&2; exit 1; }

labels=$(ctest --print-labels | sed -n 's/^  //p')
[[ -n $labels ]] || fail "ctest --print-labels lists no labels"
if grep -q ';' <<<"$labels"; then fail "compound labels: $(grep ';' <<<"$labels" | head -3)"; fi
grep -qx 'op:Conv' <<<"$labels" || fail "no label op:Conv"
grep -qx 'op:ConvInteger' <<<"$labels" || fail "no label op:ConvInteger"

# The tests with label op:Conv, read from the JSON test list, against what -L '^op:Conv$' selects.
json=$(ctest --show-only=json-v1)
with_label=$(python3 -c '
import json, sys
tests = json.load(sys.stdin)["tests"]
for t in tests:
    for p in t.get("properties", []):
        if p["name"] == "LABELS" and "op:Conv" in p["value"]:
            print(t["name"])
' <<<"$json" | sort)
selected=$(ctest -N -L '^op:Conv$' | sed -n 's/^ *Test *#[0-9]*: //p' | sort)
[[ -n $selected ]] || fail "ctest -L '^op:Conv\$' selects nothing"
[[ $selected == "$with_label" ]] || fail "-L '^op:Conv\$' selects other tests than those labelled op:Conv"
all=$(ctest -N | sed -n 's/^ *Test *#[0-9]*: //p')
grep -q '/ConvInteger/' <<<"$all" || fail "no ConvInteger test registered"
if grep -q '/ConvInteger/\|/ConvTranspose/' <<<"$selected"; then
  fail "'^op:Conv\$' selects $(grep '/ConvInteger/\|/ConvTranspose/' <<<"$selected" | head -1)"
fi
echo "check-ctest-labels: $(wc -l <<<"$labels") single labels; '^op:Conv\$' selects $(wc -l <<<"$selected") tests, exactly those labelled op:Conv"
