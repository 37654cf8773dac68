#!/usr/bin/env bash
# Configures and builds onnxgate in ./build (Release). Used by gate.sh and test.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ONNXGATE_BUILD_DIR:-$root/build}
jobs=${ONNXGATE_JOBS:-$(nproc)}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release ${ONNXGATE_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$jobs"
