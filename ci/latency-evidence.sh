#!/usr/bin/env bash
# Evidence that the latency regression detector is quiet on noise and loud on real slowdowns.
# Records a baseline of the quick zoo (mlp and mobilenet_v2 on ref, as `onnxgate bench --quick`;
# 5 rounds, the default of `baseline update`) in a scratch folder, then runs `onnxgate bench --quick --compare` against it N times (default
# 20) in each of three settings, taking turns, and counts the runs that raise an alert (exit
# code 1):
#   A/A       the same build, nothing changed          (target: at most 1 of 20 flagged)
#   +25%      TEST-ONLY extra work worth 25% of a run  (target: at least 19 of 20 flagged)
#   +3%       TEST-ONLY extra work worth 3% of a run   (target: at most 1 of 20 flagged)
# and finally times one full zoo bench on ref with the default settings.
# Needs a build (bash ci/build.sh). Usage: ci/latency-evidence.sh [N]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${ONNXGATE_BUILD_DIR:-$root/build}/harness/onnxgate
n=${1:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin" --root "$root" zoo generate "$work/zoo" >/dev/null
"$bin" --root "$root" baseline update --quick --models "$work/zoo" \
  --baselines-dir "$work/baselines" >"$work/baseline.log"
echo "baseline: $(grep -c ' on ref' "$work/baseline.log") measurement(s) recorded in a scratch folder"

source "$root/ci/latency-alerts.sh"
declare -A flagged=([A/A]=0 [+25%]=0 [+3%]=0)
# One comparison with the given extra flags; adds to flagged[$label] when it raised an alert.
compare_once() {
  local label=$1 i=$2 rc=0
  shift 2
  "$bin" --root "$root" bench --quick --compare --models "$work/zoo" \
    --baselines-dir "$work/baselines" "$@" >"$work/run.log" 2>&1 || rc=$?
  record_alert "$label" "$i" "$rc" "$work/run.log" ' regression$'
}

# The settings take turns, so a slow spell of the machine falls on all three alike and the A/A
# runs show what it alone does; in blocks, the last block would take the drift of the whole run.
for ((i = 1; i <= n; i++)); do
  compare_once "A/A" "$i"
  compare_once "+25%" "$i" --extra-work-percent 25
  compare_once "+3%" "$i" --extra-work-percent 3
done
print_tally "$n" "A/A" "+25%" "+3%"

start=$(date +%s.%N)
"$bin" --root "$root" bench --models "$work/zoo" >"$work/full.log"
end=$(date +%s.%N)
awk -v a="$start" -v b="$end" 'BEGIN { printf "full zoo bench on ref (default settings): %.1f s wall\n", b - a }'
grep -E '^(resnet18|mobilenet_v2|transformer_encoder|mlp) ' "$work/full.log"
