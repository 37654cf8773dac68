#!/usr/bin/env bash
# Evidence that the latency regression detector is quiet on noise and loud on real slowdowns.
# Records a baseline of the quick zoo (mlp and mobilenet_v2 on ref, as `onnxgate bench --quick`;
# 5 rounds, the default of `baseline update`) in a scratch folder, then runs `onnxgate bench --quick --compare` against it N times (default
# 20) in each of three settings and counts the runs that raise an alert (exit code 1):
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

# Runs the comparison n times with the given extra flags; prints how many runs were flagged.
count_flagged() {
  local label=$1
  shift
  local flagged=0 rc
  for ((i = 1; i <= n; i++)); do
    rc=0
    "$bin" --root "$root" bench --quick --compare --models "$work/zoo" \
      --baselines-dir "$work/baselines" "$@" >"$work/run.log" 2>&1 || rc=$?
    case $rc in
      0) ;;
      1)
        flagged=$((flagged + 1))
        grep -E ' regression$' "$work/run.log" | sed "s|^|  $label run $i flagged: |" ;;
      *) echo "$label: run $i failed with exit code $rc:" >&2; cat "$work/run.log" >&2; exit 2 ;;
    esac
  done
  printf '%-6s %2d of %d comparisons flagged a regression\n' "$label" "$flagged" "$n"
}

count_flagged "A/A"
count_flagged "+25%" --extra-work-percent 25
count_flagged "+3%" --extra-work-percent 3

start=$(date +%s.%N)
"$bin" --root "$root" bench --models "$work/zoo" >"$work/full.log"
end=$(date +%s.%N)
awk -v a="$start" -v b="$end" 'BEGIN { printf "full zoo bench on ref (default settings): %.1f s wall\n", b - a }'
grep -E '^(resnet18|mobilenet_v2|transformer_encoder|mlp) ' "$work/full.log"
