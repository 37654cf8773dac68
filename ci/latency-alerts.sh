# The tally of latency comparisons that raised an alert, shared by ci/latency-evidence.sh and
# ci/detector-sensitivity.sh (sourced; the caller declares `declare -A flagged` with a 0 per label).

# record_alert <label> <run number> <exit code> <log> <grep -E pattern of the alert lines>:
# exit code 1 counts an alert for the label and prints its lines; any other code but 0 stops.
record_alert() {
  local label=$1 i=$2 rc=$3 log=$4 pattern=$5
  case $rc in
    0) ;;
    1)
      flagged[$label]=$((flagged[$label] + 1))
      grep -E "$pattern" "$log" | sed "s|^|  $label run $i flagged: |" ;;
    *) echo "$label: run $i failed with exit code $rc:" >&2; cat "$log" >&2; exit 2 ;;
  esac
}

# print_tally <comparisons per label> <label>...: one line per label.
print_tally() {
  local n=$1 label
  shift
  for label in "$@"; do
    printf '%-6s %2d of %d comparisons flagged a regression\n' "$label" "${flagged[$label]}" "$n"
  done
}
