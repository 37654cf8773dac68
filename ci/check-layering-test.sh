#!/usr/bin/env bash
# Tests ci/check-layering.sh on a scratch tree: a clean tree passes; each planted include that
# breaks a rule fails naming file:line and the rule; a rule missing from docs/architecture.md
# fails. Exit 0 when every case behaves.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "check-layering-test: $*" >&2; exit 1; }

# A tree with one file under each rule's folders, every include allowed.
make_tree() {
  rm -rf "$scratch/t" && mkdir -p "$scratch/t/docs"
  cp "$here/../docs/architecture.md" "$scratch/t/docs/"
  cd "$scratch/t"
  mkdir -p runtime/base runtime/api runtime/provider/common runtime/session runtime/ep/ref \
           runtime/ep/dnnl harness/models golden conformance reports
  printf '#include "runtime/base/b.h"\n' >runtime/base/a.h
  printf '#include "runtime/base/a.h"\n' >runtime/api/a.h
  printf '#include "runtime/base/a.h"\n' >runtime/provider/a.h
  printf '#include "runtime/provider/a.h"\n' >runtime/provider/common/a.h
  printf '#include "runtime/provider/a.h"\n#include "runtime/api/a.h"\n' >runtime/session/a.cc
  printf '#include "runtime/provider/common/a.h"\n' >runtime/ep/ref/a.h
  printf '#include "runtime/provider/a.h"\n' >runtime/ep/dnnl/a.cc
  printf '#include "runtime/session/a.h"\n' >runtime/ep/dnnl/a_test.cc
  printf '#include "runtime/api/a.h"\n' >harness/models/a.cc
  printf '#include "runtime/ep/dnnl/a.h"\n' >harness/models/a_test.cc
  for d in golden conformance reports; do printf '#include "runtime/base/a.h"\n' >$d/a.cc; done
}

# expect_fail <file> <include> <rule text>: appending the include to the file fails the check
# naming <file>:<its last line> and the rule.
expect_fail() {
  make_tree
  printf '#include "%s"\n' "$2" >>"$1"
  local line
  line=$(wc -l <"$1")
  if out=$(bash "$here/check-layering.sh" "$scratch/t" 2>&1); then
    fail "$1 including $2 passed: $out"
  fi
  grep -qF "$1:$line: #include \"$2\" breaks \"$3" <<<"$out" || fail "$1 including $2: $out"
}

make_tree
out=$(bash "$here/check-layering.sh" "$scratch/t" 2>&1) || fail "the clean tree failed: $out"

expect_fail runtime/base/a.h harness/worker.h "runtime never includes harness"
expect_fail runtime/base/a.h runtime/api/a.h "runtime/base never includes anything outside"
expect_fail runtime/api/a.h runtime/model/m.h "runtime/api never includes anything outside"
expect_fail runtime/session/a.cc runtime/optimizer/o.h "runtime/session never includes runtime/optimizer"
expect_fail golden/a.cc harness/worker.h "golden, conformance and reports never include harness"
expect_fail reports/a.cc harness/worker.h "golden, conformance and reports never include harness"
expect_fail harness/models/a.cc runtime/session/session.h "harness/models never includes a session"
expect_fail runtime/ep/ref/a.h runtime/ep/dnnl/d.h "a provider never includes another provider's"
expect_fail runtime/ep/dnnl/a.cc runtime/ep/ref/kernels/common/kernel_util.h \
  "a provider never includes another provider's"
expect_fail runtime/ep/dnnl/a.cc runtime/session/session.h \
  "a provider never includes runtime/session outside its tests"
expect_fail runtime/session/a.cc runtime/ep/ref/ref_provider.h \
  "runtime/session never includes runtime/ep or runtime/builtin"
expect_fail runtime/session/a.cc runtime/builtin/builtin_runtime.h \
  "runtime/session never includes runtime/ep or runtime/builtin"
expect_fail runtime/provider/a.h runtime/ep/ref/ref_provider.h \
  "runtime/provider never includes runtime/ep, runtime/session or runtime/builtin"
expect_fail runtime/provider/common/a.h runtime/session/session.h \
  "runtime/provider never includes runtime/ep, runtime/session or runtime/builtin"
expect_fail runtime/provider/a.h runtime/builtin/builtin_runtime.h \
  "runtime/provider never includes runtime/ep, runtime/session or runtime/builtin"

# A rule the document no longer states.
make_tree
sed -i '/runtime\/session never includes runtime\/optimizer/d' docs/architecture.md
if out=$(bash "$here/check-layering.sh" "$scratch/t" 2>&1); then fail "a missing doc rule passed"; fi
grep -qF 'does not state the rule "runtime/session never includes runtime/optimizer"' <<<"$out" ||
  fail "missing doc rule: $out"

echo "check-layering-test: every planted break fails, the clean tree passes"
