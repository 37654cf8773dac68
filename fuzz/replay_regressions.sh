#!/usr/bin/env bash
# Replays the committed inputs that once crashed, hung or exhausted a fuzz target
# (fuzz/regressions/<target>/), each alone in its own process: CTest's fuzz.<target>.regressions
# (fuzz/CMakeLists.txt).
#
#   replay_regressions.sh <fuzzer> <allowed library regex or -> <folder>
#
# Every file of the folder except *.md is an input and must run clean. With a regex (fuzz_golden:
# libhdf5), an input on which that library itself crashes, hangs or asks for too much memory
# passes, named as contained, when its report's first frame outside libFuzzer, the sanitizer
# runtime and libc lies in the library: onnxgate reads goldens in the case's worker process, with
# a memory bound of its own for the read (golden/golden_read_bound.h), where such an input is that
# case's CRASH, TIMEOUT or UNRESOLVED. Deterministic: each input runs once, alone, under fixed
# limits (2 GiB RSS and per allocation, 5 s), so it passes or fails the same way every time.
set -euo pipefail
source "$(dirname "$0")/first_frame.sh"

if [[ $# -ne 3 ]]; then
  echo "usage: $0 <fuzzer> <allowed library regex or -> <folder>" >&2
  exit 2
fi
fuzzer=$1 allowed=$2 folder=$3
log=$(mktemp)
trap 'rm -f "$log"' EXIT
inputs=0 failed=0
for input in "$folder"/*; do
  [[ -f $input && $input != *.md ]] || continue
  inputs=$((inputs + 1))
  name=$(basename "$input")
  rc=0
  "$fuzzer" -rss_limit_mb=2048 -timeout=5 "$input" >"$log" 2>&1 || rc=$?
  if [[ $rc -eq 0 ]]; then
    echo "ok: $name"
    continue
  fi
  what=$(grep -m 1 -oE 'SUMMARY: [A-Za-z]+: [A-Za-z-]+' "$log" || echo "exit $rc")
  frame=$(first_frame "$log")
  if [[ $allowed != "-" && -n $frame && $frame =~ $allowed ]]; then
    echo "contained ($what in $allowed): $name"
    continue
  fi
  failed=$((failed + 1))
  echo "FAILED ($what): $name"
  grep -E 'ERROR|SUMMARY|^ +#[0-9]+ 0x' "$log" | head -n 25
done
if [[ $inputs -eq 0 ]]; then
  echo "no inputs in $folder" >&2
  exit 1
fi
echo "$inputs inputs, $failed failed"
[[ $failed -eq 0 ]]
