#!/usr/bin/env bash
# Baselines keyed by model name and configuration, with the real binary: a baseline of the zoo's
# mlp on dnnl at 1 thread in a scratch folder, then the model re-exported under its name (the
# same graph with another producer_version, so another hash) and `bench --quick --compare`:
#   - the changed model is compared with the entry of its name ("model changed (hash a -> b):
#     +x.x%"), never "no-baseline", and the exit code follows its verdict;
#   - with test-only extra work worth 30% of a run it is a regression, exit 1;
#   - at --threads 2 (never recorded) it is a new configuration, exit 0, and exit 1 with
#     --fail-on-new.
# dnnl because ref takes one thread only; CPU time because it is steadier than wall time on a
# machine shared with other work, and this checks the keys and verdicts, not the machine. The
# configurations never measured are measured briefly: only their verdict matters.
#
# Usage: ci/check-changed-model.sh <onnxgate binary>. Needs jq.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 <onnxgate binary>" >&2
  exit 2
fi
onnxgate=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "check-changed-model: $*" >&2
  exit 1
}
command -v jq >/dev/null || fail "jq is not installed (ci/install-deps.sh installs it)"

models=$work/models
common=(--models "$models" --model mlp --ep dnnl --baselines-dir "$work/baselines" --quick
        --clock cpu)
"$onnxgate" zoo generate "$models" --model mlp >/dev/null
"$onnxgate" baseline update "${common[@]}" --rounds 3 >"$work/update.log" 2>&1 ||
  { cat "$work/update.log" >&2; fail "baseline update did not exit 0"; }
before=$(sha256sum "$models/mlp.onnx" | cut -c1-8)

# Re-export: a ModelProto field appended to the serialized model (producer_version, field 3,
# "changed-1.0") merges into it when parsed, as a newer exporter's version string would.
printf '\x1a\x0bchanged-1.0' >>"$models/mlp.onnx"
after=$(sha256sum "$models/mlp.onnx" | cut -c1-8)
[[ $before != "$after" ]] || fail "the re-exported model has the same hash"

# Runs `bench --compare` with the extra arguments; sets rc and json.
compare() {
  local name=$1
  shift
  json=$work/$name.json
  set +e
  "$onnxgate" bench "${common[@]}" --compare --json "$json" "$@" >"$work/$name.log" 2>&1
  rc=$?
  set -e
  ((rc == 0 || rc == 1)) || { cat "$work/$name.log" >&2; fail "bench --compare $* exited $rc"; }
}
# The one record's field.
field() { jq -r ".latency[0].$1" "$json"; }

compare changed
[[ $(jq '.latency | length' "$json") == 1 ]] || fail "expected one record: $(jq -c .latency "$json")"
verdict=$(field verdict)
[[ $verdict != no-baseline ]] || fail "the changed model was not compared: $(field message)"
[[ $(field message) =~ ^model\ changed\ \(hash\ $before\ -\>\ $after\):\ [-+][0-9]+\.[0-9]%\; ]] ||
  fail "message: $(field message)"
grep -q "model changed (hash $before -> $after)" "$work/changed.log" ||
  fail "the console does not say the model changed"
expected=0
[[ $verdict != regression ]] || expected=1
((rc == expected)) || fail "exit $rc with verdict $verdict"
changed_verdict=$verdict

compare slower --extra-work-percent 30
[[ $(field verdict) == regression && $rc == 1 ]] ||
  fail "with 30% extra work: exit $rc, verdict $(field verdict): $(field message)"
[[ $(field message) =~ ^model\ changed\ \(hash\ $before\ -\>\ $after\):\ \+[0-9]+\.[0-9]%\; ]] ||
  fail "message with 30% extra work: $(field message)"

brief=(--rounds 1 --min-time 0.01 --warmup 0.01)
compare threads --threads 2 "${brief[@]}"
[[ $rc == 0 && $(field verdict) == no-baseline ]] ||
  fail "at 2 threads: exit $rc, verdict $(field verdict)"
[[ $(field message) == "new configuration: "*"has no entry for mlp at 2 thread(s) (it holds 1 thread(s))" ]] ||
  fail "at 2 threads: $(field message)"
grep -q "1 new configuration(s)" "$work/threads.log" || fail "the console does not count it as new"

compare fail_on_new --threads 2 --fail-on-new "${brief[@]}"
[[ $rc == 1 && $(field verdict) == no-baseline ]] ||
  fail "--fail-on-new at 2 threads: exit $rc, verdict $(field verdict)"
grep -q "(--fail-on-new: a failure)" "$work/fail_on_new.log" ||
  fail "the console does not say why --fail-on-new failed"

echo "check-changed-model: mlp re-exported ($before -> $after) compared by name: $changed_verdict;" \
     "+30% extra work: regression, exit 1; 2 threads: new, exit 0, with --fail-on-new exit 1"
