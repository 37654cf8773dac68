#!/usr/bin/env bash
# The results history end to end: 30 commits of bench and gate results, each measured for real
# once and synthesized 29 times from its JSON report (the bench's medians scaled, +5% from
# commit-20 on; the error margin of test_sigmoid creeping from 0.3 to 0.9 of its tolerance),
# appended to a SQLite file and to a PostgreSQL server started for the test. `history check
# --kind bench --last 15` must exit 1 naming commit-20 and `--last 5` exit 0; `history check
# --kind gate` must exit 1 naming the drifting case; `history show` and `history html` must name
# the step.
# Bad databases: bench --history and gate --history into a folder that does not exist, and check
# on a file that is not a database, exit 2 naming the database, the JSON reports still written.
#
# Usage: ci/check-history.sh <onnxgate binary> <repository root> [onnxgate_test_postgres binary]
#                            [screenshot folder]
# Without a PostgreSQL server (no binary given, or it cannot start one: no PostgreSQL binaries,
# no postgres user) that half is skipped with the reason; the SQLite half always runs. With a
# screenshot folder, the SQLite history's page is rendered in headless Chromium at 1280 px into
# history-html-1280px.png there (docs/images/ holds the committed one). Needs jq.
set -euo pipefail

if [[ $# -lt 2 || $# -gt 4 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root> [onnxgate_test_postgres] [screenshot folder]" >&2
  exit 2
fi
onnxgate=$(realpath "$1")
root=$(realpath "$2")
pg_tool=${3:-}
shots=${4:+$(realpath "$4")}
work=$(mktemp -d)
# The server runs as the postgres user when this script runs as root: it must reach its folder.
chmod 755 "$work"
pg_dir=$work/postgres
cleanup() {
  if [[ -n $pg_tool && -d $pg_dir ]]; then "$pg_tool" stop "$pg_dir" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "check-history: $*" >&2
  exit 1
}
command -v jq >/dev/null || fail "jq is not installed"
og() { "$onnxgate" --root "$root" "$@"; }

# Exit status of a command, its output in $work/out.log.
status_of() {
  local rc=0
  "$@" >"$work/out.log" 2>&1 || rc=$?
  echo "$rc"
}

bench=(bench --quick --model mlp --repetitions 9 --min-time 0.01 --warmup 0.01 --rounds 1)
gate=(gate --suite onnx-node --filter test_relu --filter test_sigmoid)

# commit-NN's reports (NN = 02..30) from commit-01's real ones: every time of the bench scaled
# by the step (1.05 from commit-20 on) times a deterministic noise of at most +-0.5%; the error
# margin of test_sigmoid set to 0.9 * (NN - 1) / 29 of its atol.
synthesize() {
  local n nn factor margin
  for n in $(seq 2 30); do
    nn=$(printf %02d "$n")
    factor=$(awk -v n="$n" 'BEGIN { srand(n); step = n >= 20 ? 1.05 : 1.0;
                                    printf "%.6f", step * (1 + (rand() - 0.5) * 0.01) }')
    jq --argjson f "$factor" '.latency |= map(.median_ms *= $f | .min_ms *= $f | .p90_ms *= $f
        | .p99_ms *= $f | .mean_ms *= $f)' "$work/bench-01.json" >"$work/bench-$nn.json"
    margin=$(awk -v n="$n" 'BEGIN { printf "%.4f", 0.9 * (n - 1) / 29 }')
    jq --argjson m "$margin" '.cases |= map(if .case == "test_sigmoid" then .outputs |=
        map(.min_passing_atol = .atol * $m | .min_passing_rtol = 0) else . end)' \
      "$work/gate-01.json" >"$work/gate-$nn.json"
  done
}

# 30 commits into the history `db`: commit-01 by a real bench --history and gate --history
# (their JSON reports the templates of the others), then the imports of commit-02..30.
fill_history() {
  local db=$1 n nn
  og "${bench[@]}" --json "$work/bench-01.json" --history "$db" --commit commit-01 \
    --branch main >"$work/bench.log" 2>&1 ||
    { cat "$work/bench.log" >&2; fail "bench --history $db failed"; }
  [[ $(jq '.latency | length' "$work/bench-01.json") -ge 1 ]] || fail "the bench measured nothing"
  grep -q "history: run 1 appended to" "$work/bench.log" ||
    fail "bench --history did not say it appended run 1: $(tail -3 "$work/bench.log")"
  og "${gate[@]}" --json "$work/gate-01.json" --history "$db" --commit commit-01 \
    --branch main >"$work/gate.log" 2>&1 ||
    { cat "$work/gate.log" >&2; fail "gate --history $db failed"; }
  grep -q "history: run 2 appended to" "$work/gate.log" ||
    fail "gate --history did not say it appended run 2: $(tail -3 "$work/gate.log")"
  synthesize
  for n in $(seq 2 30); do
    nn=$(printf %02d "$n")
    og history import --db "$db" --commit "commit-$nn" --branch main "$work/bench-$nn.json" \
      "$work/gate-$nn.json" >"$work/import.log" 2>&1 ||
      { cat "$work/import.log" >&2; fail "import of commit-$nn failed"; }
  done
}

# The checks on a filled history.
check_history() {
  local db=$1 what=$2 rc
  rc=$(status_of og history check --db "$db" --kind bench --last 15)
  [[ $rc == 1 ]] || { cat "$work/out.log" >&2; fail "$what: history check --last 15 exited $rc, not 1"; }
  grep -q "^REGRESSION mlp .*first at commit commit-20 " "$work/out.log" ||
    { cat "$work/out.log" >&2; fail "$what: history check does not name commit-20"; }
  rc=$(status_of og history check --db "$db" --kind bench --last 5)
  [[ $rc == 0 ]] || { cat "$work/out.log" >&2; fail "$what: history check --last 5 exited $rc, not 0"; }
  rc=$(status_of og history check --db "$db" --kind gate --last 15)
  [[ $rc == 1 ]] && grep -q "^REGRESSION onnx-node/test_sigmoid .*drifting toward" "$work/out.log" ||
    { cat "$work/out.log" >&2; fail "$what: history check --kind gate exited $rc, naming no drift"; }
  rc=$(status_of og history show --db "$db" --model mlp)
  [[ $rc == 0 ]] || { cat "$work/out.log" >&2; fail "$what: history show exited $rc"; }
  grep -q "^mlp .* 30 .*from commit-20" "$work/out.log" ||
    { cat "$work/out.log" >&2; fail "$what: history show lists no 30-point mlp series stepping at commit-20"; }
  echo "check-history: $what: 30 commits, the +5% step found at commit-20, the margin drift found"
}

fill_history "$work/history.sqlite"
check_history "$work/history.sqlite" SQLite
og history html --db "$work/history.sqlite" --out "$work/history.html" >/dev/null ||
  fail "history html failed"
grep -q '<svg' "$work/history.html" && grep -q 'at commit-20' "$work/history.html" ||
  fail "the HTML page has no chart marking the step at commit-20"

# A history that cannot be written: exit 2 naming it, the JSON report still written.
rc=$(status_of og "${bench[@]}" --json "$work/unrecorded.json" --history /nonexistent-dir/x.db)
[[ $rc == 2 ]] || { cat "$work/out.log" >&2; fail "bench --history /nonexistent-dir/x.db exited $rc, not 2"; }
grep -q "/nonexistent-dir/x.db" "$work/out.log" || fail "the error does not name the database"
[[ -s $work/unrecorded.json ]] || fail "bench wrote no JSON report before the history error"
rc=$(status_of og "${gate[@]}" --json "$work/unrecorded-gate.json" --history /nonexistent-dir/x.db)
[[ $rc == 2 ]] && grep -q "/nonexistent-dir/x.db" "$work/out.log" ||
  { cat "$work/out.log" >&2; fail "gate --history /nonexistent-dir/x.db exited $rc, not 2 naming it"; }
[[ -s $work/unrecorded-gate.json ]] || fail "gate wrote no JSON report before the history error"
echo "not a database, just text" >"$work/garbage.db"
rc=$(status_of og history check --db "$work/garbage.db" --last 15)
[[ $rc == 2 ]] && grep -q "garbage.db" "$work/out.log" ||
  { cat "$work/out.log" >&2; fail "history check on a garbage file exited $rc, not 2 naming it"; }
echo "check-history: unwritable and garbage databases: exit 2 naming them"

if [[ -n $shots ]]; then
  command -v chromium >/dev/null || fail "chromium is not installed (ci/install-deps.sh installs it)"
  mkdir -p "$shots"
  timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$work/profile" --window-size=1280,1150 \
    --screenshot="$shots/history-html-1280px.png" "file://$work/history.html" \
    >"$work/chromium.log" 2>&1 || { tail -20 "$work/chromium.log" >&2; fail "no screenshot"; }
  echo "check-history: screenshot in $shots/history-html-1280px.png"
fi

# The same against PostgreSQL, when a server can start here.
if [[ -z $pg_tool ]]; then
  echo "check-history: PostgreSQL half skipped: no onnxgate_test_postgres given"
elif ! url=$("$pg_tool" start "$pg_dir" 2>"$work/postgres.log"); then
  echo "check-history: PostgreSQL half skipped: no server could start: $(tail -1 "$work/postgres.log")"
else
  fill_history "$url"
  check_history "$url" PostgreSQL
fi
echo "check-history: passed"
