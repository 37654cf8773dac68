#!/usr/bin/env bash
# Evidence that the side-by-side latency comparison (`onnxgate bench --against`, alternating
# rounds, no stored baseline) is quiet on noise and loud on small real slowdowns, at a 3%
# threshold. Runs `bench --quick --against builtin` of the built-in runtime against itself N
# times (default 20) in each of three settings, taking turns, and counts the comparisons that
# raise an alert (exit code 1):
#   A/A   the same build on both sides                          (target: at most 1 of 20 flagged)
#   +5%   TEST-ONLY extra work worth 5% of a run, candidate only (target: at least 19 of 20)
#   +1%   TEST-ONLY extra work worth 1% of a run, candidate only (target: at most 1 of 20)
# and the slowest comparison's wall time (target: each within 60 s). A stored baseline cannot
# reach this on a shared machine, where the speed drifts by several percent over minutes
# (ci/latency-evidence.sh shows what a baseline can); the two sides' repetitions take turns in
# one worker and are judged pair by pair, so they see the same drift.
# Needs a build (bash ci/build.sh). Usage: ci/detector-sensitivity.sh [N]
# `ci/detector-sensitivity.sh --history [R] [SAMPLES_DIR]` instead measures the change-point
# detector of the results history on series simulated from R real runs
# (ci/history-detector-sensitivity.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ ${1:-} == --history ]]; then
  shift
  exec bash "$root/ci/history-detector-sensitivity.sh" "$@"
fi
bin=${ONNXGATE_BUILD_DIR:-$root/build}/harness/onnxgate
n=${1:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin" --root "$root" zoo generate "$work/zoo" >/dev/null
cat >"$work/thresholds.json" <<'EOF'
{
  "format": "onnxgate-latency-thresholds",
  "default_threshold": 0.03,
  "alpha": 0.01,
  "models": []
}
EOF

source "$root/ci/latency-alerts.sh"
declare -A flagged=([A/A]=0 [+5%]=0 [+1%]=0)
slowest=0
# One comparison with the given extra flags; adds to flagged[$label] when it raised an alert.
compare_once() {
  local label=$1 i=$2 rc=0 start end
  shift 2
  start=$(date +%s.%N)
  "$bin" --root "$root" bench --quick --models "$work/zoo" --against builtin \
    --thresholds "$work/thresholds.json" "$@" >"$work/run.log" 2>&1 || rc=$?
  end=$(date +%s.%N)
  slowest=$(awk -v a="$start" -v b="$end" -v s="$slowest" 'BEGIN { t = b - a; print (t > s ? t : s) }')
  record_alert "$label" "$i" "$rc" "$work/run.log" '^regression '
}

# The settings take turns, so a slow spell of the machine falls on all three alike.
for ((i = 1; i <= n; i++)); do
  compare_once "A/A" "$i"
  compare_once "+5%" "$i" --extra-work-percent 5
  compare_once "+1%" "$i" --extra-work-percent 1
done
print_tally "$n" "A/A" "+5%" "+1%"
printf 'slowest comparison of the quick zoo: %.1f s wall\n' "$slowest"
