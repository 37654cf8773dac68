#!/usr/bin/env bash
# A sharded CI pipeline run as a local shell pipeline: gates both ONNX node suites on ref in 3
# shards the way GitLab's parallel jobs name them (CI_NODE_INDEX 1..3, CI_NODE_TOTAL 3), merges
# the shard reports with `onnxgate merge`, renders the merged JSON again with `onnxgate report`,
# and requires the merged report to hold the verdict of every case of the unsharded gate, the
# same gate outcome and the same exit code.
#
# Usage: ci/check-shard-merge.sh <onnxgate binary> <repository root>; needs jq.
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 <onnxgate binary> <repository root>" >&2
  exit 2
fi
bin=$(realpath "$1")
root=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gate=(--root "$root" gate --suite onnx-node --suite onnx-node-1.12 --ep ref -j 2)

rc_whole=0
"$bin" "${gate[@]}" --json "$work/whole.json" >/dev/null || rc_whole=$?
for node in 1 2 3; do
  CI_NODE_INDEX=$node CI_NODE_TOTAL=3 "$bin" "${gate[@]}" --json "$work/shard$node.json" \
    >/dev/null || true
done
rc_merged=0
"$bin" merge "$work"/shard{1,2,3}.json --json "$work/merged.json" --junit "$work/merged.xml" \
  >"$work/merge.out" || rc_merged=$?
"$bin" report "$work/merged.json" --html "$work/merged.html" --markdown "$work/merged.md"

verdicts() { jq -r '.cases[] | "\(.suite)/\(.case) [\(.ep)] \(.verdict)"' "$1" | sort; }
status=0
if ! diff <(verdicts "$work/whole.json") <(verdicts "$work/merged.json") >"$work/diff"; then
  echo "check-shard-merge: the merged shards' verdicts differ from the unsharded gate's:" >&2
  head -n 20 "$work/diff" >&2
  status=1
fi
for key in .gate.passed .gate.unexpected; do
  if [[ $(jq -c "$key" "$work/whole.json") != "$(jq -c "$key" "$work/merged.json")" ]]; then
    echo "check-shard-merge: $key differs: $(jq -c "$key" "$work/whole.json") unsharded," \
      "$(jq -c "$key" "$work/merged.json") merged" >&2
    status=1
  fi
done
if [[ $rc_whole != "$rc_merged" ]]; then
  echo "check-shard-merge: exit $rc_whole unsharded, $rc_merged merged" >&2
  status=1
fi
for shard in 1 2 3; do
  [[ $(jq '.cases | length' "$work/shard$shard.json") -gt 0 ]] ||
    { echo "check-shard-merge: shard $shard ran no case" >&2; status=1; }
done
grep -q "<html" "$work/merged.html" || { echo "check-shard-merge: no HTML rendered" >&2; status=1; }
echo "unsharded: $(jq '.cases | length' "$work/whole.json") cases, exit $rc_whole;" \
  "3 shards: $(for s in 1 2 3; do jq -j '.cases | length' "$work/shard$s.json"; echo -n ' '; done)" \
  "merged: $(jq '.cases | length' "$work/merged.json") cases, exit $rc_merged"
[[ $status -eq 0 ]] && echo "the merged shards are the unsharded gate"
exit "$status"
