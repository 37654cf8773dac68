#!/usr/bin/env bash
# Differential test of the ref EP against ONNX Runtime (the CTest conformance-differential-ort;
# docs/architecture.md, "Differential testing against ONNX Runtime"):
#   1. `onnxgate ops --ep ref --json` lists the op versions ref registers;
#   2. generate.py writes cases from the node suites' single-node models (fresh seeded inputs,
#      attribute and optional-input variants, conversions to ref's other op versions, minimal
#      models of elementwise op versions no case reaches) as ONNX backend-test folders whose
#      outputs are ONNX Runtime's, computed through adapters/ort/ort_adapter.py;
#   3. `onnxgate import-onnx-tests` makes them the suite `differential` in a scratch root;
#   4. `onnxgate gate --ep ref` judges ref against them under tolerances.json, with
#      known-differences/ref.json as the expectations: any other disagreement fails;
#   5. summarize.py prints the op versions covered and not covered (with reasons), the cases
#      ONNX Runtime declined and every disagreement.
# Usage: run.sh <onnxgate> <source root> <work folder (replaced)>. Exit: the gate's (0 all
# agree or are known, 1 a disagreement, 2 infrastructure), 2 when a step before it fails.
set -euo pipefail
onnxgate=${1:?usage: run.sh <onnxgate> <source root> <work folder>}
root=${2:?usage: run.sh <onnxgate> <source root> <work folder>}
work=${3:?usage: run.sh <onnxgate> <source root> <work folder>}
here=$root/conformance/differential
python=$root/.venv/ort/bin/python
fail() { echo "differential: $*" >&2; exit 2; }

# ci/install-deps.sh makes the ONNX Runtime adapter's environment; without it nothing is compared.
[[ -x $python ]] || fail "$python is missing: run ci/install-deps.sh, which makes .venv/ort"
"$python" -c 'import onnxruntime, onnx, numpy, h5py, ml_dtypes' ||
  fail "$python lacks onnxruntime, onnx, numpy, h5py or ml_dtypes: run ci/install-deps.sh"

start=$SECONDS
rm -rf "$work"
mkdir -p "$work/root"
"$onnxgate" --root "$root" ops --ep ref --json "$work/ref-ops.json" >/dev/null ||
  fail "onnxgate ops --ep ref failed"
"$python" "$here/generate.py" --source-root "$root" --ref-ops "$work/ref-ops.json" \
  --out "$work/cases" --manifest "$work/manifest.json" --jobs 2 ||
  fail "generate.py failed"
generated=$SECONDS
ort_version=$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["onnxruntime"])' \
  "$work/manifest.json")
"$onnxgate" --root "$work/root" import-onnx-tests "$work/cases" --suite differential \
  --producer "onnxruntime $ort_version (adapters/ort/ort_adapter.py)" \
  --source "conformance/differential/generate.py" --created 2026-01-01T00:00:00Z \
  >"$work/import.log" || { cat "$work/import.log"; fail "import-onnx-tests failed"; }
imported=$SECONDS

rc=0
"$onnxgate" --root "$work/root" gate --suite differential --ep ref -j 2 --timeout 60 \
  --tolerances "$here/tolerances.json" --expectations-dir "$here/known-differences" \
  --json "$work/gate.json" >"$work/gate.log" 2>&1 || rc=$?
if [[ ! -f $work/gate.json ]]; then
  cat "$work/gate.log"
  fail "the gate wrote no report (exit $rc)"
fi
"$python" "$here/summarize.py" --manifest "$work/manifest.json" --gate "$work/gate.json" ||
  fail "the gate did not judge every case (summarize.py)"
echo
echo "Time: $((generated - start)) s generating (ONNX Runtime included), $((imported - generated)) s" \
  "importing, $((SECONDS - imported)) s gating ref; work folder $work"
tail -n 3 "$work/gate.log"
exit "$rc"
