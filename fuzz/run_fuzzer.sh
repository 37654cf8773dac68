#!/usr/bin/env bash
# Runs one fuzz target for a fixed number of inputs and judges what it found. Used by CTest
# (fuzz/CMakeLists.txt).
#
#   run_fuzzer.sh <fuzzer> <runs> <findings folder> <allowed library regex or -> <corpus...>
#
# Deterministic: a fixed seed, a fixed number of runs, and the first corpus folder (where
# libFuzzer keeps what it finds) emptied first, so every run on the same sources makes the
# same inputs and a finding shows up every time until it is fixed.
#
# With "-" any crash, leak, timeout or out-of-memory fails the run. With a regex, a crash, hang
# or out-of-memory whose first stack frame outside libFuzzer, the sanitizer runtime, the
# allocator and libc (fuzz/first_frame.sh) lies in a library matching it passes, with a note:
# that is for libhdf5, which crashes, loops and over-allocates on some corrupted files;
# production reads goldens in a worker process with a memory bound of its own for the read (a
# CRASH, TIMEOUT or UNRESOLVED naming the golden), and onnxgate cannot change libhdf5.
set -euo pipefail
source "$(dirname "$0")/first_frame.sh"

if [[ $# -lt 5 ]]; then
  echo "usage: $0 <fuzzer> <runs> <findings folder> <allowed library regex or -> <corpus...>" >&2
  exit 2
fi
fuzzer=$1 runs=$2 findings=$3 allowed=$4
shift 4
rm -rf "$findings" "$1"
mkdir -p "$findings" "$1"
rc=0
"$fuzzer" -seed=1 -runs="$runs" -rss_limit_mb=4096 -timeout=20 -print_final_stats=1 \
  -artifact_prefix="$findings/" "$@" >"$findings/fuzz.log" 2>&1 || rc=$?
grep -E '^stat::|DONE' "$findings/fuzz.log" || true
[[ $rc -eq 0 ]] && exit 0

# The report of what stopped the run: its first frame outside the runtime.
frame=$(first_frame "$findings/fuzz.log")
if [[ $allowed != "-" && -n $frame && $frame =~ $allowed ]]; then
  echo "known, inside an allowed library: ${frame#"${frame%%[![:space:]]*}"}"
  exit 0
fi
echo "FINDING (exit $rc), inputs in $findings:"
grep -E 'ERROR|SUMMARY|^ +#[0-9]+ 0x' "$findings/fuzz.log" | head -n 25
exit 1
