#!/usr/bin/env bash
# Tests ci/check-format.sh on a scratch git tree: formatted files pass; a line over 100 columns,
# a brace moved to its own line, or a file outside the style fails naming the file; a tree
# without .clang-format is a usage error (exit 2). Exit 0 when every case behaves.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "check-format-test: $*" >&2; exit 1; }

make_tree() {
  rm -rf "$scratch/t" && mkdir -p "$scratch/t/runtime/base" && cd "$scratch/t"
  git init -q . && cp "$here/../.clang-format" .
  printf '// A.\n#pragma once\n\nnamespace onnxgate {\n\nint Twice(int x);\n\n}  // namespace onnxgate\n' \
    >runtime/base/a.h
  printf '// A.\n#include "runtime/base/a.h"\n\nnamespace onnxgate {\n\nint Twice(int x) {\n  switch (x) {\n    case 0: return 0;\n    default: return 2 * x;\n  }\n}\n\n}  // namespace onnxgate\n' \
    >runtime/base/a.cc
  git add -A
}

# expect_fail <file> <text appended>: the check fails and names the file.
expect_fail() {
  make_tree
  printf '%s\n' "$2" >>"$1"
  if out=$(bash "$here/check-format.sh" "$scratch/t" 2>&1); then fail "$1 + '$2' passed: $out"; fi
  grep -qF "check-format: $1 is not formatted" <<<"$out" || fail "$1 + '$2': $out"
}

make_tree
out=$(bash "$here/check-format.sh" "$scratch/t" 2>&1) || fail "the formatted tree failed: $out"
grep -qF "check-format: 2 files formatted" <<<"$out" || fail "the formatted tree: $out"

expect_fail runtime/base/a.cc "int Long(int a) { return a + 1000000000 + 1000000000 + 1000000000 + 1000000000 + 1000000000 + 1000000000; }"
expect_fail runtime/base/a.cc "int Brace(int a)
{
  return a;
}"
expect_fail runtime/base/a.h "int  Spaced( int x );"

make_tree
rm .clang-format
set +e
out=$(bash "$here/check-format.sh" "$scratch/t" 2>&1)
rc=$?
set -e
[[ $rc -eq 2 ]] || fail "no .clang-format: exit $rc, $out"

echo "check-format-test: every case behaves"
