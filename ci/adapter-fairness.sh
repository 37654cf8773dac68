#!/usr/bin/env bash
# Fair timing through an adapter: for each zoo model, the median `onnxgate bench --runtime ort`
# reports when ONNX Runtime times its own runs (the adapter's timed-runs request, --timing
# runtime) beside ONNX Runtime's own Python loop (ci/ort-own-loop.py: session.run timed with
# perf_counter, one intra-op and one inter-op thread, optimization level 0, inputs of the bench's
# shapes made once), and the median when onnxgate times each run request through the pipe
# (--timing harness), to show what the pipe costs. The three take turns, model by model, in each
# of the rounds of one run; each column is the median over rounds of each measurement's median.
# Prints a table and exits 1 when the MLP's adapter median is not within 10% of the own loop's.
#
# Usage: ci/adapter-fairness.sh [rounds] (default 3); after ci/install-deps.sh and a build.
# ADAPTER_FAIRNESS_MODELS="mlp resnet18" measures only those zoo models.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${ONNXGATE_BUILD_DIR:-$root/build}/harness/onnxgate
python=$root/.venv/ort/bin/python
rounds=${1:-3}
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
measure=(--repetitions 10 --min-time 0.2 --warmup 0.5)

bench() { # model timing -> the median in ms (and the timing side checked)
  "$bin" --root "$root" bench --runtime ort --models "$work/zoo" --model "$1" --rounds 1 \
    --timing "$2" "${measure[@]}" --json "$work/bench.json" >"$work/bench.log" 2>&1 ||
    { cat "$work/bench.log" >&2; fail "bench of $1 with --timing $2 failed"; }
  [[ $(jq -r '.latency[0].timed_by' "$work/bench.json") == "$2" ]] ||
    fail "bench of $1 with --timing $2 reports timed_by $(jq -c '.latency[0].timed_by' "$work/bench.json")"
  jq -r '.latency[0].median_ms' "$work/bench.json"
}
own_loop() {
  "$python" "$root/ci/ort-own-loop.py" "$work/zoo/$1.onnx" --repetitions 10 --min-time 0.2 \
    --warmup 0.5 | jq -r .median_ms
}

for ((round = 1; round <= rounds; ++round)); do
  for model in "${models[@]}"; do
    # Each round starts with another of the three, so no one of them always runs first.
    for turn in 0 1 2; do
      case $(((turn + round) % 3)) in
        0) echo "$model runtime $(bench "$model" runtime)" ;;
        1) echo "$model loop $(own_loop "$model")" ;;
        2) echo "$model harness $(bench "$model" harness)" ;;
      esac
    done | tee -a "$work/results" >&2
  done
done

python3 - "$work/results" "${models[@]}" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
ms = lambda model, kind: statistics.median(float(v) for m, k, v in rows if m == model and k == kind)
print("| model | adapter, timed runs (ms) | own loop (ms) | ratio | adapter, harness-timed (ms) | pipe cost (ms) |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
bad = False
for model in sys.argv[2:]:
    runtime, loop, harness = ms(model, "runtime"), ms(model, "loop"), ms(model, "harness")
    print("| %s | %.4f | %.4f | %.3f | %.4f | %.4f |" % (model, runtime, loop, runtime / loop,
                                                         harness, harness - runtime))
    if model == "mlp" and abs(runtime / loop - 1) > 0.10:
        bad = True
if bad:
    print("adapter-fairness: the MLP's adapter median is not within 10% of ONNX Runtime's own loop")
    sys.exit(1)
PY
