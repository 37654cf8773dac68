#!/usr/bin/env bash
# Times the gate of both ONNX node suites (onnx-node and onnx-node-1.12, 2,806 cases) on ref with
# -j 2 in each isolation mode, on the built-in runtime and on the built-in runtime as a plugin
# (`--runtime plugin:`), as the median of 3 runs of the real command each, and reports the peak
# resident memory of the gate (parent plus workers, summed; ci/peak-rss.py) from one more run of
# each. `--isolation none` runs every case in one process, one after another: ref's own compute
# for the 2,806 cases, the floor the isolated modes are measured against.
#
# Usage: ci/time-isolation.sh; needs a build (bash ci/build.sh). ONNXGATE_BUILD_DIR picks another
# build directory.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ONNXGATE_BUILD_DIR:-$root/build}
bin=$build/harness/onnxgate
plugin=$(find "$build" -name libonnxgate_builtin_plugin.so -print -quit)
[[ -n $plugin ]] || { echo "time-isolation: no libonnxgate_builtin_plugin.so under $build" >&2; exit 2; }

gate() {  # gate <runtime> <isolation>
  "$bin" --root "$root" gate --suite onnx-node --suite onnx-node-1.12 --ep ref -j 2 \
    --runtime "$1" --isolation "$2"
}

median_seconds() {  # median_seconds <runtime> <isolation>: the median wall time of 3 gates
  local times=() start end
  for _ in 1 2 3; do
    start=$(date +%s%N)
    gate "$1" "$2" >/dev/null
    end=$(date +%s%N)
    times+=("$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')")
  done
  printf '%s\n' "${times[@]}" | sort -g | sed -n 2p
}

peak_mib() {  # peak_mib <runtime> <isolation>
  python3 "$root/ci/peak-rss.py" "$bin" --root "$root" gate --suite onnx-node \
    --suite onnx-node-1.12 --ep ref -j 2 --runtime "$1" --isolation "$2" 2>&1 >/dev/null |
    tail -n 1 | jq -r .peak_rss_mib
}

declare -A seconds
printf '%-9s %-7s %10s %16s\n' runtime mode "median s" "peak RSS MiB"
for runtime in builtin plugin; do
  spec=$runtime
  [[ $runtime == plugin ]] && spec="plugin:$plugin"
  for mode in worker case none; do
    s=$(median_seconds "$spec" "$mode")
    seconds[$runtime-$mode]=$s
    printf '%-9s %-7s %10.2f %16s\n' "$runtime" "$mode" "$s" "$(peak_mib "$spec" "$mode")"
  done
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "builtin worker / none: $(ratio "${seconds[builtin-worker]}" "${seconds[builtin-none]}")"
echo "builtin case / worker: $(ratio "${seconds[builtin-case]}" "${seconds[builtin-worker]}")"
echo "plugin worker / plugin none: $(ratio "${seconds[plugin-worker]}" "${seconds[plugin-none]}")"
