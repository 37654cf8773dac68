#!/usr/bin/env bash
# Checks the layering rules of docs/architecture.md ("Layering rules"): every quoted #include of
# every C and C++ file in the tree is resolved to a path from the repository root and checked
# against the RULES table below. Exit 0 when all hold, 1 naming file:line, the include and the
# rule for each break, 2 on a usage error.
#
#   ci/check-layering.sh [source root, default: this script's repository]
#
# The table mirrors the rules the document states: each rule's text must appear, word for word,
# in docs/architecture.md (whitespace aside), so neither can change without the other. A rule
# that applies to no file is an error too (a folder was renamed and the rule checks nothing).
set -euo pipefail

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
[[ -f $root/docs/architecture.md ]] || { echo "check-layering: no docs/architecture.md in $root" >&2; exit 2; }
cd "$root"

# Fields, separated by " | ": rule text (as docs/architecture.md states it); files it applies to
# (ERE on the path); files exempt (ERE, or -); includes it forbids (ERE on the included path; !ERE forbids every
# include that does not match; OTHER_PROVIDER: runtime/ep/<x> including runtime/ep/<y>, x != y)
RULES=(
  'runtime never includes harness, golden, conformance, reports or suites | ^runtime/ | - | ^(harness|golden|conformance|reports|suites)/'
  'golden, conformance and reports never include harness | ^(golden|conformance|reports)/ | - | ^harness/'
  'runtime/base never includes anything outside runtime/base | ^runtime/base/ | - | !^runtime/base/'
  'runtime/api never includes anything outside runtime/api and runtime/base | ^runtime/api/ | - | !^runtime/(api|base)/'
  'runtime/session never includes runtime/optimizer | ^runtime/session/ | - | ^runtime/optimizer/'
  'harness/models never includes a session or a provider (runtime/session, runtime/ep) outside its tests | ^harness/models/ | _test\.cc$ | ^runtime/(session|ep)/'
  "a provider never includes another provider's folder (runtime/ep/<name>) | ^runtime/ep/ | - | OTHER_PROVIDER"
  'a provider never includes runtime/session outside its tests | ^runtime/ep/ | _test\.cc$ | ^runtime/session/'
  'runtime/session never includes runtime/ep or runtime/builtin | ^runtime/session/ | - | ^runtime/(ep|builtin)/'
  'runtime/provider never includes runtime/ep, runtime/session or runtime/builtin | ^runtime/provider/ | - | ^runtime/(ep|session|builtin)/'
)

fail=0
# Each rule is stated in docs/architecture.md.
doc=$(tr -s '[:space:]' ' ' <docs/architecture.md)
for rule in "${RULES[@]}"; do
  text=${rule%% | *}
  if [[ $doc != *"$text"* ]]; then
    echo "check-layering: docs/architecture.md does not state the rule \"$text\"" >&2
    fail=1
  fi
done

# The tree's C and C++ files (build folders and hidden folders aside).
mapfile -t dirs < <(find . -mindepth 1 -maxdepth 1 -type d ! -name '.*' ! -name 'build*' \
                      ! -name out -printf '%P\n' | sort)
mapfile -t files < <(find "${dirs[@]}" -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cc' \
                       -o -name '*.cpp' -o -name '*.c' -o -name '*.inc' \) | sort)
[[ ${#files[@]} -gt 0 ]] || { echo "check-layering: no source files under $root" >&2; exit 2; }

# One awk pass over every quoted include: file:line:text from grep, plus the file list for the
# "applies to no file" check.
set +e
{
  printf 'FILE\t%s\n' "${files[@]}"
  grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "${files[@]}"
} | awk -v rules="$(printf '%s\n' "${RULES[@]}")" \
        -v tops="$(printf '%s\n' "${dirs[@]}")" '
BEGIN {
  nr = split(rules, lines, "\n")
  for (i = 1; i <= nr; i++) {
    split(lines[i], f, / \| /); text[i] = f[1]; scope[i] = f[2]; exempt[i] = f[3]; deny[i] = f[4]
  }
  nt = split(tops, tl, "\n")
  for (i = 1; i <= nt; i++) top[tl[i]] = 1
  bad = 0; nincludes = 0
}
function provider(path) { return match(path, /^runtime\/ep\/[^\/]+\//) ? substr(path, 1, RLENGTH - 1) : "" }
function resolve(file, inc,   first, dir) {
  if (inc ~ /^onnxgate\//) return "runtime/plugin/include/" inc   # the plugin ABI include root
  first = inc; sub(/\/.*/, "", first)
  if (inc ~ /\// && (first in top)) return inc
  dir = file; sub(/\/[^\/]*$/, "", dir)
  return dir "/" inc
}
$1 == "FILE" && NF == 2 && $0 ~ /^FILE\t/ {
  for (i = 1; i <= nr; i++) if ($2 ~ scope[i] && !(exempt[i] != "-" && $2 ~ exempt[i])) used[i] = 1
  nfiles++
  next
}
{
  file = $0; sub(/:.*/, "", file)
  rest = substr($0, length(file) + 2); line = rest; sub(/:.*/, "", line)
  inc = rest; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
  path = resolve(file, inc); nincludes++
  for (i = 1; i <= nr; i++) {
    if (file !~ scope[i] || (exempt[i] != "-" && file ~ exempt[i])) continue
    if (deny[i] == "OTHER_PROVIDER") {
      from = provider(file); to = provider(path)
      if (from == "" || to == "" || from == to) continue
      printf "%s:%s: #include \"%s\" breaks \"%s\" (%s)\n", file, line, inc, text[i], from " -> " to
      bad = 1
      continue
    }
    neg = substr(deny[i], 1, 1) == "!"
    re = neg ? substr(deny[i], 2) : deny[i]
    if ((path ~ re) != neg) {
      printf "%s:%s: #include \"%s\" breaks \"%s\"\n", file, line, inc, text[i]
      bad = 1
    }
  }
}
END {
  for (i = 1; i <= nr; i++) if (!(i in used)) {
    printf "the rule \"%s\" applies to no file (%s)\n", text[i], scope[i]; bad = 1
  }
  printf "check-layering: %d files, %d includes, %d rules\n", nfiles, nincludes, nr
  exit bad
}' >&2
status=$?
set -e
[[ $status -eq 0 && $fail -eq 0 ]] && exit 0
echo "check-layering: the includes above break the layering rules of docs/architecture.md" >&2
exit 1
