#!/usr/bin/env bash
# Proves that docs/adapter-protocol.md is enough to write an adapter: the minimal adapter it shows
# (examples/minimal_adapter/minimal_adapter.py, standard-library Python) must be the file itself,
# byte for byte, and must gate the smoke suite: its Relu/Sigmoid/Tanh and Add cases PASS and
# every other case is UNSUPPORTED (the adapter declines it at load with UNIMPLEMENTED), which an
# expectations file written here predicts, so the gate exits 0 for that reason alone. The same
# adapter made to answer wrongly (MINIMAL_ADAPTER_BROKEN=1: Relu returns its input) must fail the
# gate (exit 1) with the Relu case FAIL.
#
# Usage: ci/check-minimal-adapter.sh <onnxgate binary> <repository root>. Exit 0 when all hold.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root>" >&2
  exit 2
fi
bin=$(realpath "$1")
root=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
adapter=examples/minimal_adapter/minimal_adapter.py
passing="activations add_broadcast_row"

fail() {
  echo "check-minimal-adapter: $*" >&2
  exit 1
}

# The fenced block after the doc's marker line is the adapter, verbatim.
awk -v marker="<!-- $adapter -->" '
  $0 == marker { found = 1; next }
  found == 1 && /^```python$/ { found = 2; next }
  found == 2 && /^```$/ { exit }
  found == 2 { print }' "$root/docs/adapter-protocol.md" >"$work/from-doc.py"
[[ -s $work/from-doc.py ]] || fail "docs/adapter-protocol.md shows no block after '<!-- $adapter -->'"
diff -u "$work/from-doc.py" "$root/$adapter" >"$work/doc.diff" ||
  { cat "$work/doc.diff" >&2; fail "the adapter in docs/adapter-protocol.md is not $adapter"; }

# Expectations: every smoke case but the passing ones is UNSUPPORTED. The file is named as
# conformance/expectations_naming.h names an adapter's: <runtime name>.<ep>.json.
mkdir "$work/expectations"
python3 - "$root/suites/smoke/suite.json" "$passing" >"$work/expectations/minimal.CPU.json" <<'PY'
import json, sys
cases = [c["name"] for c in json.load(open(sys.argv[1]))["cases"]]
passing = sys.argv[2].split()
missing = [p for p in passing if p not in cases]
if missing:
    sys.exit("the smoke suite has no case %s" % missing[0])
print(json.dumps({"entries": [
    {"suite": "smoke", "case": c, "status": "unsupported",
     "reason": "the minimal adapter computes Relu, Sigmoid, Tanh and Add only"}
    for c in cases if c not in passing]}, indent=2))
PY

gate() {  # gate <report> [env...]: the smoke gate on the minimal adapter; prints its exit code
  local report=$1
  shift
  set +e
  cd "$root"  # the adapter's command names it relative to the repository root
  env "$@" "$bin" --root "$root" gate --suite smoke --runtime "adapter:python3 $adapter" \
    --expectations-dir "$work/expectations" --json "$report" >"$report.out" 2>&1
  echo $?
  set -e
}
verdicts() {  # verdicts <report>: "<case> <verdict>" lines, sorted
  python3 -c 'import json, sys
for c in json.load(open(sys.argv[1]))["cases"]: print(c["case"], c["verdict"])' "$1" | sort
}

rc=$(gate "$work/good.json")
[[ $rc == 0 ]] || { cat "$work/good.json.out" >&2; fail "the gate exited $rc, expected 0"; }
for c in $passing; do
  grep -qx "$c PASS" <(verdicts "$work/good.json") || fail "$c is not PASS"
done
others=$(verdicts "$work/good.json" | grep -v -E "^($(tr ' ' '|' <<<"$passing")) " || true)
[[ -n $others ]] || fail "the report lists no other case"
if grep -v ' UNSUPPORTED$' <<<"$others"; then fail "the cases above are not UNSUPPORTED"; fi
grep -q 'no kernel for' "$work/good.json" || fail "no decline names the op it lacks"

rc=$(gate "$work/broken.json" MINIMAL_ADAPTER_BROKEN=1)
[[ $rc == 1 ]] || { cat "$work/broken.json.out" >&2; fail "the broken adapter's gate exited $rc, expected 1"; }
grep -qx "activations FAIL" <(verdicts "$work/broken.json") ||
  fail "the broken adapter's Relu case is not FAIL"
echo "check-minimal-adapter: the documented adapter is the example file; it gates smoke" \
  "($(wc -l <<<"$others") cases UNSUPPORTED, $(wc -w <<<"$passing") PASS), and broken it fails"
