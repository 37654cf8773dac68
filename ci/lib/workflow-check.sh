# Shared by the ci/ scripts that check a documented onnxgate workflow command by command
# (own-models-example.sh, check-framework-goldens.sh, check-quantized-drift.sh). Sourced after the
# script has set check_name (its name in messages), onnxgate (the binary) and work (its temporary
# folder).

# fail <message>: ends the check with exit 1, naming it.
fail() {
  echo "$check_name: $*" >&2
  exit 1
}

# run <expected exit> <log name> <onnxgate arguments...>: the output goes to the log and stdout.
run() {
  local want=$1 log=$work/$2.log rc=0
  shift 2
  echo "+ onnxgate $*"
  "$onnxgate" "$@" >"$log" 2>&1 || rc=$?
  cat "$log"
  [[ $rc == "$want" ]] || fail "onnxgate $* exited $rc, expected $want"
}

# need_ort_venv <repository root>: sets python to the ONNX Runtime venv's interpreter and needs
# jq, or fails saying what installs them.
need_ort_venv() {
  python=$1/.venv/ort/bin/python
  [[ -x $python ]] || fail "$python is missing (ci/install-deps.sh makes .venv/ort)"
  command -v jq >/dev/null || fail "jq is not installed (ci/install-deps.sh installs it)"
}
