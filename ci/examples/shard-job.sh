#!/usr/bin/env bash
# One shard job of a sharded release gate, the step every example here (gitlab-ci.yml,
# github-actions.yml, Jenkinsfile) runs: gates this shard's part of the release selection and
# writes its JSON report for the merge job (merge-job.sh).
#
#   ci/examples/shard-job.sh <report.json> [onnxgate gate options: --shard-index K --shard-count N]
#
# Which shard this is comes from the options, or without them from the CI system's variables,
# which onnxgate reads itself: GitLab's CI_NODE_INDEX (1-based) and CI_NODE_TOTAL of a
# `parallel: N` job, or a Kubernetes indexed Job's JOB_COMPLETION_INDEX with --shard-count N.
# Without either it gates everything (one job, no merge needed).
#
# The selection (suites, EP, workers) is here, once, so that every shard and the unsharded run
# gate the same thing: change it here, not in the CI files.
#
# ONNXGATE names the onnxgate binary (default: onnxgate on PATH). An installed onnxgate finds its
# suites, goldens and expectations in its data folder (<prefix>/share/onnxgate); a build tree's
# uses its source tree; ONNXGATE_ROOT overrides both.
#
# Exit: 0 when the shard ran and wrote its report, whatever its verdicts (the merge job judges the
# whole run); 2 when it could not run or was interrupted (the merge job then lacks this shard and
# fails too).
set -euo pipefail
if [[ $# -lt 1 ]]; then
  echo "usage: $0 <report.json> [onnxgate gate options...]" >&2
  exit 2
fi
report=$1
shift
mkdir -p "$(dirname "$report")"
rc=0
"${ONNXGATE:-onnxgate}" gate --suite smoke --suite onnx-node --ep ref -j 2 "$@" --json "$report" ||
  rc=$?
# 1 is a verdict (unexpected results), which the merged report carries; anything else is not.
if [[ $rc -ne 0 && $rc -ne 1 ]]; then
  echo "shard-job: onnxgate gate exited $rc: this shard has no verdicts" >&2
  exit 2
fi
