#!/usr/bin/env bash
# Installs dependencies, builds, and runs every CTest test (unit tests of every library and the
# registered conformance suites) with output on failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/ci/install-deps.sh"
bash "$root/ci/build.sh"
cd "${ONNXGATE_BUILD_DIR:-$root/build}"
ctest --output-on-failure -j "$(nproc)"
