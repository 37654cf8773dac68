#!/usr/bin/env bash
# Fair timing through an adapter: for each zoo model, the median `onnxgate bench --runtime ort`
# reports when ONNX Runtime times its own runs (the adapter's timed-runs request, --timing
# runtime) beside ONNX Runtime's own Python loop (ci/ort-own-loop.py: session.run timed with
# perf_counter, one intra-op and one inter-op thread, optimization level 0, inputs of the bench's
# shapes made once), and the median when onnxgate times each run request through the pipe
# (--timing harness), to show what the pipe costs. The three take turns, model by model, in each
# of the rounds of one run (the adapter and the own loop twice each, A B B A), each measurement a
# few seconds long, so that a slow spell of a shared machine falls on both alike. Each time column
# is the median of its measurements' medians (two a round for the adapter and the own loop, one
# for the harness-timed bench); the ratio is adapter / own loop of those.
# Prints a table and exits 1 when the MLP's adapter median is not within 10% of the own loop's.
#
# Usage: ci/adapter-fairness.sh [rounds] (default 5); after ci/install-deps.sh and a build.
# ADAPTER_FAIRNESS_MODELS="mlp resnet18" measures only those zoo models.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${ONNXGATE_BUILD_DIR:-$root/build}/harness/onnxgate
python=$root/.venv/ort/bin/python
rounds=${1:-5}
fail() {
  echo "adapter-fairness: $*" >&2
  exit 2
}
[[ -x $python ]] || fail "no .venv/ort (ci/install-deps.sh makes it)"
[[ -x $bin ]] || fail "no onnxgate at $bin (build first, or set ONNXGATE_BUILD_DIR)"
command -v jq >/dev/null || fail "jq is not installed"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" zoo generate "$work/zoo" >/dev/null
read -r -a models <<<"${ADAPTER_FAIRNESS_MODELS:-mlp mobilenet_v2 resnet18 transformer_encoder}"
measure=(--repetitions 10 --min-time 0.1 --warmup 0.3)

bench() { # model timing -> the median in ms (and the timing side checked)
  "$bin" --root "$root" bench --runtime ort --models "$work/zoo" --model "$1" --rounds 1 \
    --timing "$2" "${measure[@]}" --json "$work/bench.json" >"$work/bench.log" 2>&1 ||
    { cat "$work/bench.log" >&2; fail "bench of $1 with --timing $2 failed"; }
  [[ $(jq -r '.latency[0].timed_by' "$work/bench.json") == "$2" ]] ||
    fail "bench of $1 with --timing $2 reports timed_by $(jq -c '.latency[0].timed_by' "$work/bench.json")"
  jq -r '.latency[0].median_ms' "$work/bench.json"
}
own_loop() {
  "$python" "$root/ci/ort-own-loop.py" "$work/zoo/$1.onnx" "${measure[@]}" | jq -r .median_ms
}

for ((round = 1; round <= rounds; ++round)); do
  for model in "${models[@]}"; do
    # The adapter and the own loop in the order A B B A (B A A B in even rounds), so that a drift
    # of the machine's speed during the round falls on both alike; then the harness-timed one.
    order=(runtime loop loop runtime harness)
    ((round % 2 == 1)) || order=(loop runtime runtime loop harness)
    for kind in "${order[@]}"; do
      case $kind in
        runtime) echo "$round $model runtime $(bench "$model" runtime)" ;;
        loop) echo "$round $model loop $(own_loop "$model")" ;;
        harness) echo "$round $model harness $(bench "$model" harness)" ;;
      esac
    done | tee -a "$work/results" >&2
  done
done

python3 - "$work/results" "${models[@]}" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]  # round, model, kind, median
ms = lambda model, kind: statistics.median(float(v) for _, m, k, v in rows
                                           if m == model and k == kind)
ratio = lambda model: ms(model, "runtime") / ms(model, "loop")
print("| model | adapter, timed runs (ms) | own loop (ms) | ratio | adapter, harness-timed (ms) "
      "| pipe cost (ms) |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
bad = False
for model in sys.argv[2:]:
    runtime, loop, harness = ms(model, "runtime"), ms(model, "loop"), ms(model, "harness")
    print("| %s | %.4f | %.4f | %.3f | %.4f | %.4f |" % (model, runtime, loop, ratio(model),
                                                         harness, harness - runtime))
    if model == "mlp" and abs(ratio(model) - 1) > 0.10:
        bad = True
if bad:
    print("adapter-fairness: the MLP's adapter median is not within 10% of ONNX Runtime's own "
          "loop")
    sys.exit(1)
PY
