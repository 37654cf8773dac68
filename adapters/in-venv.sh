#!/usr/bin/env bash
# Runs a Python adapter with the Python of its project-local virtual environment, as
# adapters/runtimes.json names them; when that environment was never made, says which and how to
# make it (on stderr, exit 3) instead of failing to start a program that is not there.
#
# Usage: adapters/in-venv.sh <virtual environment folder> <adapter.py> [arguments...]
set -euo pipefail
venv=$1
shift
if [[ ! -x $venv/bin/python ]]; then
  make="ci/install-deps.sh"
  [[ $(basename "$venv") == ort-gpu ]] && make+=" --with ort-gpu"
  echo "this runtime's Python environment $venv is missing; make it with $make" \
    "(as root, from the repository root)" >&2
  exit 3
fi
exec "$venv/bin/python" "$@"
