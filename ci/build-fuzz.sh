#!/usr/bin/env bash
# Configures and builds the libFuzzer targets (fuzz/, docs/fuzzing.md) in ./build-fuzz with clang,
# ASan and UBSan. Used by test.sh; the targets' short runs are its CTest tests labelled `fuzz`.
# No fuzz target reaches the dnnl or opencl EP, so both are left out (neither oneDNN nor the
# OpenCL driver is instrumented).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ONNXGATE_FUZZ_BUILD_DIR:-$root/build-fuzz}
jobs=${ONNXGATE_JOBS:-$(nproc)}
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DONNXGATE_BUILD_TESTS=OFF -DONNXGATE_FUZZ=ON -DONNXGATE_WITH_DNNL=OFF \
  -DONNXGATE_WITH_OPENCL=OFF ${ONNXGATE_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$jobs" --target onnxgate_fuzzers
