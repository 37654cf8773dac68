#!/usr/bin/env bash
# Checks that the documentation names only onnxgate subcommands, options, suites and repository
# paths that exist: every command line in README.md, docs/*.md and golden/README.md that invokes
# onnxgate is checked against the `--help` output of the given binary, its suite names against
# suites/, and every repository path in a code span against the source tree. Exit 0 when all
# agree, 1 naming file, line and the offending text for each disagreement, 2 on a usage error.
#
#   ci/check-docs.sh <onnxgate binary> [source root, default: this script's repository]
#
# Rules:
#  - Checked text: every line of a fenced code block (``` or ~~~; lines ending in `\` are joined
#    with the next), and every inline code span (`...`) outside code blocks. Prose outside code
#    spans is not checked.
#  - An invocation starts at the first word that is `onnxgate` or ends in `/onnxgate`
#    (build/harness/onnxgate, ./onnxgate, "$BUILD"/harness/onnxgate); text without one is not
#    checked. It ends at a shell separator (| || && ; > <) or a `#` comment.
#  - Options (`--name` or `--name=value`) before the first subcommand are global options and are
#    checked against `onnxgate --help`. The first other word is the subcommand and must be one
#    that `onnxgate --help` lists, unless it follows an option that takes a value (its help line
#    names a type, e.g. `--root TEXT`), or is a placeholder (<dir>, [...], ..., $VAR), which
#    stops the check of that invocation. A subcommand that has subcommands (`expectations`,
#    `zoo`, `baseline`) needs one of them next, checked the same way.
#  - Options after the (innermost) subcommand are checked against that subcommand's
#    `--help`: only the first column of its "Options:" section counts, not descriptions.
#    `-h`/`--help` are accepted everywhere; short options (-j) are not checked.
#  - Hidden options: a test-only option deliberately left out of `--help` is listed in
#    HIDDEN_OPTIONS below as "<subcommand path>:<option>"; docs may name it only for that
#    subcommand.
#  - Suites: the value of every `--suite X` (or `--suite=X`) in a checked invocation must be a
#    folder suites/X of the source root, or a suite that the same file creates: the `--suite X`
#    of a `record` or `import-onnx-tests` command in it (they write suites/X, possibly under
#    another `--root`, as the file's walkthrough does). Placeholders (<name>, $VAR) are not
#    checked.
#  - Paths: an inline code span that is one word with a `/`, not starting with `/` or `.`, is a
#    repository path when its first component exists at the source root; it must then exist.
#    A component that is a placeholder (<suite>, *_test.cc, $VAR, ...) ends the check: the path
#    up to it must exist. Build outputs and local folders (build/, build-*/, out/, .venv/) are
#    not checked, nor are paths whose first component is no top-level entry (zoo/mlp.onnx,
#    work/suites/..., kernels/nn relative to a folder named in the text).
set -euo pipefail

HIDDEN_OPTIONS=("bench:--extra-work-percent")

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 <onnxgate binary> [source root]" >&2
  exit 2
fi
bin=$1
root=${2:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
if [[ ! -x $bin ]]; then
  echo "$0: $bin is not an executable" >&2
  exit 2
fi

db=$(mktemp)
trap 'rm -f "$db"' EXIT

# Writes the help database: "<path>\tsub\t<name>", "<path>\topt\t<--name>" and
# "<path>\tvalopt\t<--name>" (an option taking a value), for the path "" (top level) and every
# subcommand path ("bench", "zoo generate").
describe() {
  local path=$1 help
  # shellcheck disable=SC2086  # the path's words are separate arguments
  if ! help=$("$bin" $path --help 2>&1); then
    echo "$0: '$bin $path --help' failed" >&2
    exit 2
  fi
  awk -v path="$path" '
    /^Options:/ { section = "opt"; next }
    /^Subcommands:/ { section = "sub"; next }
    /^[^ ]/ { section = "" }
    section == "opt" && /^  +(-[A-Za-z],)?--[a-z0-9-]+/ {
      line = $0
      sub(/^ +(-[A-Za-z],)?/, "", line)
      name = line; sub(/[ =].*/, "", name)
      rest = substr(line, length(name) + 1)
      # A type word (TEXT, INT, FLOAT ...) right after the name means it takes a value.
      kind = (rest ~ /^ [A-Z]+/ || rest ~ /^=/) ? "valopt" : "opt"
      printf "%s\t%s\t%s\n", path, kind, name
    }
    section == "sub" && /^  [a-z][a-z0-9-]* / {
      split($0, w, " "); printf "%s\tsub\t%s\n", path, w[1]
    }' <<<"$help" >>"$db"
  local sub
  for sub in $(awk -F'\t' -v path="$path" '$1 == path && $2 == "sub" { print $3 }' "$db"); do
    describe "${path:+$path }$sub"
  done
}
describe ""
for h in "${HIDDEN_OPTIONS[@]}"; do
  printf '%s\topt\t%s\n' "${h%%:*}" "${h#*:}" >>"$db"
done

for dir in "$root"/suites/*/; do
  [[ -d $dir ]] && printf 'suites\tdir\t%s\n' "$(basename "$dir")" >>"$db"
done

docs=("$root/README.md" "$root"/docs/*.md "$root/golden/README.md")
status=0
awk -F'\t' -v root="$root" '
  FNR == NR { known[$1 SUBSEP $2 SUBSEP $3] = 1; next }
  FNR == 1 { fence = ""; pending = "" }
  function has(path, kind, name) { return (path SUBSEP kind SUBSEP name) in known }
  function is_placeholder(w) { return w ~ /^[<\[$]/ || w ~ /\.\.\./ || w ~ /[*]/ }
  function report(text, why) {
    printf "%s:%d: %s: %s\n", FILENAME, FNR, why, text
    bad = 1
  }
  function exists(p) { gsub(/\047/, "\047\\\047\047", p); return system("test -e \047" p "\047") == 0 }
  # Notes a suite named by `--suite`: created by record/import-onnx-tests, else used.
  function note_suite(name, path) {
    if (name == "" || is_placeholder(name)) return
    if (path == "record" || path == "import-onnx-tests") { created[FILENAME, name] = 1; return }
    used[++n_used] = name; used_file[n_used] = FILENAME; used_line[n_used] = FNR
  }
  # Checks one code span that may be a repository path.
  function check_path(text,    n, c, i, prefix) {
    if (text !~ /^[A-Za-z0-9_][^ \t]*\/[^ \t]*$/) return
    n = split(text, c, "/")
    if (c[1] == "build" || c[1] ~ /^build-/ || c[1] == "out" || is_placeholder(c[1])) return
    if (!exists(root "/" c[1])) return
    prefix = c[1]
    for (i = 2; i <= n; ++i) {
      if (c[i] == "" || is_placeholder(c[i]) || c[i] ~ /[<>$]/) break
      prefix = prefix "/" c[i]
    }
    if (!exists(root "/" prefix)) report(text, "no such path in the source tree: " prefix)
  }
  # Checks one piece of text (a code line or a code span).
  function check(text,    n, w, i, start, path, want_sub, after_value, word, name, k, p, suite_next) {
    n = split(text, w, /[ \t]+/)
    start = 0
    for (i = 1; i <= n; ++i) {
      gsub(/^["\047]+|["\047]+$/, "", w[i])
      if (w[i] == "onnxgate" || w[i] ~ /\/onnxgate$/) { start = i; break }
    }
    if (start == 0) return
    path = ""; want_sub = 1; after_value = 0; suite_next = 0
    for (i = start + 1; i <= n; ++i) {
      word = w[i]
      if (word == "" ) continue
      if (word ~ /^(\||\|\||&&|;|>|>>|<|2>|2>&1|#.*)$/ || word ~ /^[0-9]?>/) break
      if (suite_next) { suite_next = 0; note_suite(word, path) }
      if (word ~ /^--[A-Za-z0-9]/) {
        name = word; sub(/=.*/, "", name)
        after_value = 0
        if (name == "--suite") {
          if (word ~ /=/) note_suite(substr(word, index(word, "=") + 1), path)
          else suite_next = 1
        }
        if (name == "--help") continue
        if (has(path, "valopt", name)) { after_value = (word !~ /=/); continue }
        if (has(path, "opt", name)) continue
        report(word, path == "" ? "onnxgate has no global option " name \
                                : "`onnxgate " path "` has no option " name)
        continue
      }
      if (word ~ /^-/) { after_value = 0; continue }  # short options are not checked
      if (after_value) { after_value = 0; continue }
      if (!want_sub) continue  # a positional argument
      if (is_placeholder(word)) return
      if (has(path, "sub", word)) {
        path = (path == "" ? word : path " " word)
        # Only a subcommand with subcommands of its own wants another one.
        want_sub = 0
        for (k in known) { split(k, p, SUBSEP); if (p[1] == path && p[2] == "sub") { want_sub = 1; break } }
        continue
      }
      report(word, path == "" ? "onnxgate has no subcommand " word \
                              : "`onnxgate " path "` has no subcommand " word)
      return
    }
  }
  {
    if (fence == "" && match($0, /^[ \t]*(```|~~~)/)) { fence = substr($0, RSTART + RLENGTH - 3, 3); next }
    if (fence != "") {
      if (index($0, fence) && $0 ~ /^[ \t]*(```|~~~)[ \t]*$/) { fence = ""; next }
      # A shell line continued with a trailing backslash is checked as one line, reported at
      # its first line.
      if ($0 ~ /\\[ \t]*$/) {
        if (pending == "") pending_line = FNR
        cont = $0; sub(/\\[ \t]*$/, " ", cont); pending = pending cont
        next
      }
      if (pending != "") {
        saved = FNR; FNR = pending_line; check(pending $0); FNR = saved; pending = ""
        next
      }
      check($0)
      next
    }
    line = $0
    while (match(line, /`[^`]+`/)) {
      check(substr(line, RSTART + 1, RLENGTH - 2))
      check_path(substr(line, RSTART + 1, RLENGTH - 2))
      line = substr(line, RSTART + RLENGTH)
    }
  }
  END {
    for (i = 1; i <= n_used; ++i) {
      if (has("suites", "dir", used[i]) || (used_file[i], used[i]) in created) continue
      printf "%s:%d: no folder suites/%s, and no record or import-onnx-tests in this file creates it: --suite %s\n",
             used_file[i], used_line[i], used[i], used[i]
      bad = 1
    }
    exit bad
  }
' "$db" "${docs[@]}" || status=1

if [[ $status -ne 0 ]]; then
  echo "check-docs: the documentation names onnxgate commands, options, suites or paths that do not exist" >&2
  exit 1
fi
echo "check-docs: ${#docs[@]} files agree with $bin --help"
