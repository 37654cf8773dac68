#!/usr/bin/env bash
# Runs the sharded CI examples of ci/examples/ as local shell pipelines, so that the examples and
# what they do cannot drift apart: from each of gitlab-ci.yml, github-actions.yml and Jenkinsfile
# it takes the one command line that calls ci/examples/shard-job.sh and the one that calls
# ci/examples/merge-job.sh, runs the first for 3 shards with the variables that CI system sets
# (GitLab: CI_NODE_INDEX 1..3 and CI_NODE_TOTAL 3; GitHub Actions and Jenkins: SHARD_INDEX 0..2
# and SHARD_COUNT 3, as the files set them), then the second, and requires the merged report to
# hold the same suite/case/ep/verdict set and gate outcome as the unsharded run of
# shard-job.sh, every shard to have run cases, and the merge job to pass. Last, the GitLab
# pipeline with an expectations file that a passing case contradicts: its merge job must fail.
#
# Usage: ci/check-ci-examples.sh <onnxgate binary> <repository root>; needs jq.
set -euo pipefail
shopt -s inherit_errexit
if [[ $# -ne 2 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root>" >&2
  exit 2
fi
export ONNXGATE
ONNXGATE=$(realpath "$1")
root=$(realpath "$2")
examples=$root/ci/examples
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset CI_NODE_INDEX CI_NODE_TOTAL GTEST_SHARD_INDEX GTEST_TOTAL_SHARDS JOB_COMPLETION_INDEX \
  SHARD_INDEX SHARD_COUNT ONNXGATE_ROOT

fail() {
  echo "check-ci-examples: $*" >&2
  exit 1
}

# The one command line of <file> that calls ci/examples/<script>, up to a quote or the line's
# end, with ci/examples/ made absolute; comment lines (# or //) do not count.
command_of() {
  local found
  found=$(grep -v -E '^\s*(#|//)' "$examples/$1" | grep -o "ci/examples/$2[^'\"]*") ||
    fail "$1 never calls ci/examples/$2"
  [[ $(wc -l <<<"$found") -eq 1 ]] || fail "$1 calls ci/examples/$2 more than once"
  echo "${found//ci\/examples\//$examples/}"
}

# Each CI system's shard count is 3, as this test runs it.
grep -q '^  parallel: 3$' "$examples/gitlab-ci.yml" || fail "gitlab-ci.yml: no 'parallel: 3'"
grep -q '^        shard: \[0, 1, 2\]$' "$examples/github-actions.yml" ||
  fail "github-actions.yml: no matrix 'shard: [0, 1, 2]'"
grep -q '^      SHARD_COUNT: 3$' "$examples/github-actions.yml" ||
  fail "github-actions.yml: no 'SHARD_COUNT: 3'"
grep -q "^    SHARD_COUNT = '3'$" "$examples/Jenkinsfile" || fail "Jenkinsfile: no SHARD_COUNT = '3'"

verdicts() { jq -r '.cases[] | "\(.suite)/\(.case) [\(.ep)] \(.verdict)"' "$1" | sort; }

"$examples/shard-job.sh" "$work/whole.json" >/dev/null
whole_cases=$(jq '.cases | length' "$work/whole.json")

# run_pipeline <CI file> <dir> [extra gate options]: the file's shard jobs, then its merge job,
# in <dir>; prints the merge job's exit code.
run_pipeline() {
  local file=$1 dir=$2 extra=${3:-} shard_cmd merge_cmd k rc=0
  shard_cmd=$(command_of "$file" shard-job.sh)
  merge_cmd=$(command_of "$file" merge-job.sh)
  mkdir -p "$dir"
  for k in 0 1 2; do
    case $file in
      gitlab-ci.yml)
        (cd "$dir" && CI_NODE_INDEX=$((k + 1)) CI_NODE_TOTAL=3 bash -c "$shard_cmd $extra") ;;
      *)
        (cd "$dir" && SHARD_INDEX=$k SHARD_COUNT=3 bash -c "$shard_cmd $extra") ;;
    esac >"$dir/shard$k.out" 2>&1 || { cat "$dir/shard$k.out" >&2; fail "$file: shard $k failed"; }
  done
  (cd "$dir" && bash -c "$merge_cmd") >"$dir/merge.out" 2>&1 || rc=$?
  echo "$rc"
}

for file in gitlab-ci.yml github-actions.yml Jenkinsfile; do
  dir=$work/${file%%.*}
  rc=$(run_pipeline "$file" "$dir")
  [[ $rc -eq 0 ]] || { cat "$dir/merge.out" >&2; fail "$file: the merge job exited $rc"; }
  for out in gate.json gate.xml gate.md gate.html; do
    [[ -s $dir/merged/$out ]] || fail "$file: the merge job wrote no merged/$out"
  done
  counts="" shards=0
  for shard in "$dir"/reports/shard-*.json; do
    n=$(jq '.cases | length' "$shard")
    [[ $n -gt 0 ]] || fail "$file: $(basename "$shard") ran no case"
    counts+="$n " shards=$((shards + 1))
  done
  [[ $shards -eq 3 ]] || fail "$file: $shards shard reports, not 3"
  diff <(verdicts "$work/whole.json") <(verdicts "$dir/merged/gate.json") >"$dir/diff" ||
    { head -n 20 "$dir/diff" >&2; fail "$file: the merged verdicts differ from the unsharded run's"; }
  [[ $(jq -c .gate "$work/whole.json") == "$(jq -c .gate "$dir/merged/gate.json")" ]] ||
    fail "$file: the merged gate outcome differs from the unsharded run's"
  echo "$file: 3 shards of ${counts% } cases merged into the unsharded run's $whole_cases verdicts"
done

# A passing case marked as an expected failure fails the strict gate: the merge job must fail.
mkdir -p "$work/bad-expectations"
jq '.entries += [{"suite": "smoke", "case": "add_broadcast_row", "status": "xfail",
                  "reason": "planted by ci/check-ci-examples.sh"}]' \
  "$root/conformance/expectations/ref.json" >"$work/bad-expectations/ref.json"
rc=$(run_pipeline gitlab-ci.yml "$work/failing" "--expectations-dir $work/bad-expectations")
[[ $rc -eq 1 ]] || { cat "$work/failing/merge.out" >&2; fail "a failed merged gate exited $rc, not 1"; }
echo "a merged gate with an unexpected pass fails its merge job (exit 1)"
