#!/usr/bin/env bash
# Tests ci/check-layering.sh on a scratch tree: a clean tree passes; each planted include that
# breaks a rule fails naming file:line and the rule; a provider pair over its allowlisted count
# fails; a rule missing from docs/architecture.md fails. Exit 0 when every case behaves.
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
  mkdir -p runtime/base runtime/api runtime/session runtime/ep/ref runtime/ep/dnnl harness/models \
           golden conformance reports
  printf '#include "runtime/base/b.h"\n' >runtime/base/a.h
  printf '#include "runtime/base/a.h"\n' >runtime/api/a.h
  printf '#include "runtime/api/a.h"\n' >runtime/session/a.cc
  printf '#include "runtime/base/a.h"\n' >runtime/ep/ref/a.h
  printf '#include "runtime/ep/ref/a.h"\n' >runtime/ep/dnnl/a.cc
  printf '#include "runtime/api/a.h"\n' >harness/models/a.cc
  printf '#include "runtime/ep/dnnl/a.h"\n' >harness/models/a_test.cc
  for d in golden conformance reports; do printf '#include "runtime/base/a.h"\n' >$d/a.cc; done
}

# expect_fail <file> <include> <rule text>: appending the include to the file fails the check
# naming <file>:2 and the rule.
expect_fail() {
  make_tree
  printf '#include "%s"\n' "$2" >>"$1"
  if out=$(bash "$here/check-layering.sh" "$scratch/t" 2>&1); then
    fail "$1 including $2 passed: $out"
  fi
  grep -qF "$1:2: #include \"$2\" breaks \"$3" <<<"$out" || fail "$1 including $2: $out"
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

# The allowlist's first pair, one include over its count, fails (skipped once the list is empty).
read -r from to allowed < <(sed -n "/^PROVIDER_ALLOWLIST=(/{n;s/[')]//g;p}" "$here/check-layering.sh")
if [[ $from == runtime/ep/* ]]; then
  make_tree
  rm -rf "$from" && mkdir -p "$from" && : >"$from/over.cc"
  for i in $(seq 0 "$allowed"); do printf '#include "%s/a.h"\n' "$to" >>"$from/over.cc"; done
  if out=$(bash "$here/check-layering.sh" "$scratch/t" 2>&1); then fail "$from -> $to over its count passed"; fi
  grep -qF "$from includes $to $((allowed + 1)) times, the allowlist allows $allowed" <<<"$out" ||
    fail "$from -> $to over its count: $out"
fi

# A rule the document no longer states.
make_tree
sed -i '/runtime\/session never includes runtime\/optimizer/d' docs/architecture.md
if out=$(bash "$here/check-layering.sh" "$scratch/t" 2>&1); then fail "a missing doc rule passed"; fi
grep -qF 'does not state the rule "runtime/session never includes runtime/optimizer"' <<<"$out" ||
  fail "missing doc rule: $out"

echo "check-layering-test: every planted break fails, the clean tree passes"
