#!/usr/bin/env bash
# Checks that every C and C++ file git tracks is formatted as the committed .clang-format says
# (Google base, 100 columns, short case labels on one line). Exit 0 when all are, 1 naming each
# file that is not with the first lines clang-format would change, 2 on a usage error (no
# clang-format, no .clang-format, not a git checkout).
#
#   ci/check-format.sh [source root, default: this script's repository]
#
# To fix: clang-format -i <file> (or every file: git ls-files '*.cc' '*.h' | xargs clang-format -i).
set -euo pipefail

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
command -v clang-format >/dev/null || { echo "check-format: clang-format is not installed" >&2; exit 2; }
[[ -f $root/.clang-format ]] || { echo "check-format: no .clang-format in $root" >&2; exit 2; }
cd "$root"
mapfile -t files < <(git ls-files -- '*.h' '*.hpp' '*.cc' '*.cpp' '*.c' '*.inc') ||
  { echo "check-format: $root is not a git checkout" >&2; exit 2; }
[[ ${#files[@]} -gt 0 ]] || { echo "check-format: no C or C++ files tracked in $root" >&2; exit 2; }

# Both cores at once: files in batches of 50, the list of files clang-format would change.
mapfile -t bad < <(printf '%s\0' "${files[@]}" |
  xargs -0 -n 50 -P "$(nproc)" clang-format --style=file --dry-run 2>&1 |
  sed -n 's/^\(.*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' | sort -u)

if [[ ${#bad[@]} -eq 0 ]]; then
  echo "check-format: ${#files[@]} files formatted as .clang-format says"
  exit 0
fi
for f in "${bad[@]}"; do
  echo "check-format: $f is not formatted as .clang-format says; clang-format -i $f would change:"
  clang-format --style=file "$f" | diff "$f" - | head -n 8 | sed 's/^/  /'
done
echo "check-format: ${#bad[@]} of ${#files[@]} files need clang-format -i" >&2
exit 1
