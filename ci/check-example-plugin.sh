#!/usr/bin/env bash
# Proves that onnxgate installs as a package a plugin author can build against: installs the
# build into a temporary prefix (cmake --install), builds examples/relu_plugin out of tree with
# find_package(onnxgate), and has the installed onnxgate load the plugin and list its claims.
#
# Usage: ci/check-example-plugin.sh <build dir> <repository root>. Exit 0 when all of it works.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <build dir> <repository root>" >&2
  exit 2
fi
build=$(realpath "$1")
root=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "check-example-plugin: $*" >&2
  exit 1
}

cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" ||
  { cat "$work/install.log" >&2; fail "cmake --install failed"; }
for f in bin/onnxgate include/onnxgate/plugin.h lib/onnxgate/libonnxgate_builtin_plugin.so \
         lib/cmake/onnxgate/onnxgateConfig.cmake lib/cmake/onnxgate/onnxgateConfigVersion.cmake; do
  [[ -e $work/prefix/$f ]] || fail "the install has no $f"
done

cmake -S "$root/examples/relu_plugin" -B "$work/relu-build" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log" >&2; fail "configuring the example with find_package(onnxgate) failed"; }
grep -E 'onnxgate [0-9.]+, plugin ABI version [0-9]+' "$work/configure.log" ||
  fail "the package did not report its version"
cmake --build "$work/relu-build" >"$work/build.log" 2>&1 ||
  { cat "$work/build.log" >&2; fail "building the example plugin failed"; }
plugin=$work/relu-build/librelu_plugin.so
[[ -f $plugin ]] || fail "no $plugin"

"$work/prefix/bin/onnxgate" --root "$root" ops --runtime "plugin:$plugin" --ep relu-cpu \
  --json "$work/ops.json" >"$work/ops.out" 2>&1 ||
  { cat "$work/ops.out" >&2; fail "the installed onnxgate could not use the plugin"; }
claimed() {  # claimed <version>: true or false for Relu-<version>
  jq -r --argjson v "$1" '[.operators[] | select(.op == "Relu") | .versions[] |
                           select(.since_version == $v) | .claimed] | first' "$work/ops.json"
}
# The plugin claims Relu-14 only (ref would claim 13 as well): the claims are the plugin's.
[[ $(claimed 14) == true && $(claimed 13) == false ]] ||
  fail "expected the plugin's claims (Relu-14 yes, Relu-13 no), got $(claimed 14) and $(claimed 13)"
echo "the installed onnxgate loads the out-of-tree plugin and sees its claims"
