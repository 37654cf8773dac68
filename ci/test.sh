#!/usr/bin/env bash
# Installs dependencies, builds, and runs every CTest test: the unit tests of every library and
# the registered conformance suites (./build), then the fuzz targets' short runs (./build-fuzz,
# label `fuzz`), each with output on failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/ci/install-deps.sh"
bash "$root/ci/build.sh"
bash "$root/ci/build-fuzz.sh"
(cd "${ONNXGATE_BUILD_DIR:-$root/build}" && ctest --output-on-failure -j "$(nproc)")
(cd "${ONNXGATE_FUZZ_BUILD_DIR:-$root/build-fuzz}" && ctest --output-on-failure -j "$(nproc)" -L fuzz)
