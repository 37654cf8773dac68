#!/usr/bin/env bash
# Proves that an installed onnxgate gates a runtime from a project of its own: installs the build
# into a temporary prefix outside the build tree (cmake --install), checks that the data folder
# holds what --root needs, builds examples/ci_project against the prefix (find_package(onnxgate),
# onnxgate_add_suite registering the smoke suite on the built-in runtime as a plugin) and runs
# `ctest -L release` there: every test passes and there is at least one. Then the installed
# binary, run from / with no --root and no ONNXGATE_ROOT, reports and uses its installed data
# folder, and `list --ctest-script` keeps an EP priority list (A+B) and --label intact.
#
# Usage: ci/check-installed-package.sh <build dir> <repository root>. Exit 0 when all of it works.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <build dir> <repository root>" >&2
  exit 2
fi
build=$(realpath "$1")
root=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
data=$prefix/share/onnxgate
unset ONNXGATE_ROOT

fail() {
  echo "check-installed-package: $*" >&2
  exit 1
}

cmake --install "$build" --prefix "$prefix" >"$work/install.log" ||
  { cat "$work/install.log" >&2; fail "cmake --install failed"; }
for f in bin/onnxgate lib/onnxgate/libonnxgate_builtin_plugin.so \
         lib/cmake/onnxgate/onnxgateConfig.cmake lib/cmake/onnxgate/OnnxgateAddSuite.cmake \
         share/onnxgate/suites/smoke/suite.json share/onnxgate/golden/data/smoke \
         share/onnxgate/conformance/tolerances.json share/onnxgate/conformance/expectations/ref.json \
         share/onnxgate/adapters/runtimes.json share/onnxgate/adapters/ort/ort_adapter.py \
         share/onnxgate/adapters/ort/requirements.txt share/onnxgate/adapters/ort/ort_options.py \
         share/onnxgate/adapters/common/adapter_protocol.py share/onnxgate/adapters/in-venv.sh \
         share/onnxgate/adapters/openvino/openvino_adapter.py \
         share/onnxgate/adapters/openvino/requirements.txt; do
  [[ -e $prefix/$f ]] || fail "the install has no $f"
done
# Exactly the files --root needs: every suite's models and goldens, no sources or scripts.
for suite in smoke onnx-node onnx-node-1.12; do
  want=$(find "$root/suites/$suite" -name '*.onnx' -o -name '*.onnxtxt' | wc -l)
  got=$(find "$data/suites/$suite" -name '*.onnx' -o -name '*.onnxtxt' | wc -l)
  [[ $want == "$got" ]] || fail "suite $suite: $got of $want models installed"
  want=$(find "$root/golden/data/$suite" -name '*.h5' | wc -l)
  got=$(find "$data/golden/data/$suite" -name '*.h5' | wc -l)
  [[ $want == "$got" ]] || fail "suite $suite: $got of $want goldens installed"
done
strays=$(find "$data" -type f ! -name '*.onnx' ! -name '*.onnxtxt' ! -name '*.h5' ! -name '*.json' \
  ! -path "$data/adapters/*.py" ! -name 'requirements*.txt' ! -path "$data/adapters/in-venv.sh")
# No adapter's own tests.
tests=$(find "$data/adapters" -name '*_test.py')
[[ -z $tests ]] || fail "the data folder holds adapter tests: $(head -3 <<<"$tests")"
[[ -z $strays ]] || fail "the data folder holds files --root does not need: $(head -3 <<<"$strays")"

# The example project against the prefix: configure, build (writes the test list), ctest.
cmake -S "$root/examples/ci_project" -B "$work/ci-build" -DCMAKE_PREFIX_PATH="$prefix" \
  >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log" >&2; fail "configuring examples/ci_project failed"; }
grep -F "data in $data" "$work/configure.log" >/dev/null ||
  fail "the package did not name the installed data folder $data"
cmake --build "$work/ci-build" >"$work/build.log" 2>&1 ||
  { cat "$work/build.log" >&2; fail "building examples/ci_project failed"; }
ctest --test-dir "$work/ci-build" -L release -j2 --output-on-failure >"$work/ctest.log" 2>&1 ||
  { tail -n 40 "$work/ctest.log" >&2; fail "ctest -L release failed"; }
ran=$(sed -n 's/^100% tests passed, 0 tests failed out of \([0-9]*\)$/\1/p' "$work/ctest.log")
[[ -n $ran && $ran -gt 0 ]] || { tail -n 5 "$work/ctest.log" >&2; fail "ctest -L release ran no test"; }
cases=$(jq '.cases | length' "$data/suites/smoke/suite.json")
[[ $ran == "$cases" ]] || fail "ctest -L release ran $ran tests, the smoke suite has $cases cases"
grep -F -- "--root \"$data\"" "$work/ci-build/"smoke_*_tests.cmake >/dev/null ||
  fail "the registered tests do not run on the installed data folder"

# No --root, no ONNXGATE_ROOT, run from /: the installed binary reports its data folder as the
# default root and gates a suite from it.
bin=$prefix/bin/onnxgate
shown=$(cd / && "$bin" --help | sed -n 's/^ *--root TEXT=\([^ ]*\).*/\1/p')
[[ $shown == "$data" ]] || fail "the installed onnxgate's default root is '$shown', not $data"
(cd / && "$bin" gate --suite smoke --json "$work/gate.json") >"$work/gate.out" 2>&1 ||
  { cat "$work/gate.out" >&2; fail "the installed onnxgate could not gate smoke without --root"; }
[[ $(jq '.cases | length' "$work/gate.json") == "$cases" ]] ||
  fail "the installed gate of smoke did not run its $cases cases"

# An EP priority list and extra labels reach the generated tests unchanged.
(cd / && "$bin" list --suite smoke --ep OpenVINOExecutionProvider+CPUExecutionProvider \
  --label release --label 'team:x' --ctest-script "$work/plus.cmake") ||
  fail "list --ctest-script with an EP priority list failed"
grep -F -- '--ep "OpenVINOExecutionProvider+CPUExecutionProvider"' "$work/plus.cmake" >/dev/null ||
  fail "the EP priority list did not reach the tests' command lines"
grep -F 'add_test("smoke/add_broadcast_row/OpenVINOExecutionProvider+CPUExecutionProvider"' \
  "$work/plus.cmake" >/dev/null || fail "the EP priority list is not in the tests' names"
grep -F 'ep:OpenVINOExecutionProvider+CPUExecutionProvider;' "$work/plus.cmake" | grep -F \
  ';release;team:x"' >/dev/null || fail "the labels of --ep and --label are not in the tests' labels"
if (cd / && "$bin" list --suite smoke --label '' --ctest-script "$work/empty.cmake") \
  2>"$work/empty.err"; then
  fail "list accepted an empty --label"
fi
echo "installed into $prefix ($(du -sh "$data" | cut -f1) of data); examples/ci_project ran" \
  "$ran tests with ctest -L release, all passed; the installed binary's root is $data"
