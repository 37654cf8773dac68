#!/usr/bin/env bash
# Evidence for the change-point detector of the results history (harness/history/change_points.h)
# on this machine's real noise. Runs `bench --quick` of the built-in runtime R times (default 20)
# and keeps every repetition of each quick-zoo model, its wall and its CPU time (a blank line
# between runs), then simulates series of 60 commits from them (onnxgate_detector_sensitivity:
# each commit is the median of 27 repetitions drawn with replacement from all runs pooled, and
# again from one run picked at random, which keeps the drift between runs) and prints per model
# and clock:
#   +5% step at a random commit, 20 trials: found within 5 commits (target: at least 19 of 20)
#   +2% step, 20 trials: found within 5 commits (reported)
#   A/A, 100 series: false change points per 100 commits (target: at most 1)
#   the time FindChangePoints takes over 100 series of 100 points.
# Needs a build with the targets onnxgate and onnxgate_detector_sensitivity.
# Usage: ci/history-detector-sensitivity.sh [R] [SAMPLES_DIR]: the samples are kept in SAMPLES_DIR
# (a scratch folder by default); when it already holds <model>.<clock>.txt, nothing is measured
# and those samples are simulated again.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ONNXGATE_BUILD_DIR:-$root/build}
bin=$build/harness/onnxgate
driver=$build/harness/history/onnxgate_detector_sensitivity
runs=${1:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
samples=${2:-$work/samples}
[[ -x $driver ]] || { echo "no $driver: build the target onnxgate_detector_sensitivity" >&2; exit 2; }

# Appends each model's repetitions of one bench report to $dir/<model>.<clock>.txt (wall: the
# report's real_time, cpu: its cpu_time, the process CPU time of the same repetitions), then a
# blank line that ends the run.
collect_run() {
  local report=$1 dir=$2 model clock field
  for model in $(jq -r '[.benchmarks[] | select(.run_type == "iteration") | .run_name] | unique[]' \
    "$report"); do
    for clock in wall cpu; do
      field=$([[ $clock == wall ]] && echo real_time || echo cpu_time)
      jq -r --arg m "$model" --arg f "$field" \
        '.benchmarks[] | select(.run_type == "iteration" and .run_name == $m) | .[$f]' \
        "$report" >>"$dir/${model%%/*}.$clock.txt"
      echo >>"$dir/${model%%/*}.$clock.txt"
    done
  done
}

mkdir -p "$samples"
if ! compgen -G "$samples/*.txt" >/dev/null; then
  "$bin" --root "$root" zoo generate "$work/zoo" >/dev/null
  start=$(date +%s)
  for ((i = 1; i <= runs; i++)); do
    "$bin" --root "$root" bench --quick --models "$work/zoo" --json "$work/run.json" \
      >"$work/run.log" 2>&1 || { cat "$work/run.log" >&2; exit 2; }
    collect_run "$work/run.json" "$samples"
  done
  echo "collected $runs runs of bench --quick in $(($(date +%s) - start)) s"
fi

# Each model and clock, commits drawn from all runs pooled and from one run at a time.
for file in "$samples"/*.txt; do
  for draw in pool run; do
    echo "== $(basename "$file" .txt), --draw $draw"
    "$driver" "$file" --commits 60 --trials 20 --aa-series 100 --per-commit 27 --draw "$draw"
  done
done
