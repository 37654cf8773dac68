#!/usr/bin/env bash
# The merge job of a sharded release gate, the last step every example here (gitlab-ci.yml,
# github-actions.yml, Jenkinsfile) runs: merges the shards' JSON reports (shard-job.sh) into the
# run's reports and fails on the merged gate outcome.
#
#   ci/examples/merge-job.sh <folder of shard-*.json> <output folder>
#
# Writes gate.json, gate.xml (JUnit), gate.md and gate.html into the output folder. ONNXGATE names
# the onnxgate binary (default: onnxgate on PATH).
#
# Exit (onnxgate merge's): 0 when the merged gate passed, 1 when it failed (unexpected results),
# 2 when there are no shard reports or they are not the shards of one run (one missing or given
# twice, different suites, EPs or shard counts) or cannot be read.
set -euo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 <folder of shard-*.json> <output folder>" >&2
  exit 2
fi
shopt -s nullglob
shards=("$1"/shard-*.json)
if [[ ${#shards[@]} -eq 0 ]]; then
  echo "merge-job: no shard reports (shard-*.json) in $1" >&2
  exit 2
fi
mkdir -p "$2"
exec "${ONNXGATE:-onnxgate}" merge "${shards[@]}" --json "$2/gate.json" --junit "$2/gate.xml" \
  --markdown "$2/gate.md" --html "$2/gate.html"
