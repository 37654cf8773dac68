#!/usr/bin/env bash
# Configures and builds onnxgate in ./build (Release). Used by gate.sh and test.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ONNXGATE_BUILD_DIR:-$root/build}
jobs=${ONNXGATE_JOBS:-$(nproc)}
# The dnnl and opencl EPs are on by default; saying so here also turns them on in a build folder
# configured before they were (ONNXGATE_CMAKE_ARGS="-DONNXGATE_WITH_DNNL=OFF" builds without one).
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DONNXGATE_WITH_DNNL=ON \
  -DONNXGATE_WITH_OPENCL=ON ${ONNXGATE_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$jobs"
