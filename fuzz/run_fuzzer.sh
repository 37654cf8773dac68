#!/usr/bin/env bash
# Runs one fuzz target for a while and judges what it found. Used by CTest (fuzz/CMakeLists.txt).
#
#   run_fuzzer.sh <fuzzer> <seconds> <findings folder> <allowed library regex or -> <corpus...>
#
# With "-" every crash, leak, timeout or out-of-memory fails the run at once (libFuzzer's own
# behaviour). With a regex, the target runs in libFuzzer's fork mode and goes on past crashes;
# each input it kept is replayed and the run fails unless the crash (or the hang) happened inside
# a library matching the regex (the first stack frame outside libFuzzer, the sanitizer runtime
# and libc). That is for libhdf5: it crashes on some corrupted files, which production reads in
# a worker process (a CRASH naming the golden), and onnxgate cannot fix it.
set -euo pipefail

if [[ $# -lt 5 ]]; then
  echo "usage: $0 <fuzzer> <seconds> <findings folder> <allowed library regex or -> <corpus...>" >&2
  exit 2
fi
fuzzer=$1 seconds=$2 findings=$3 allowed=$4
shift 4
rm -rf "$findings"
mkdir -p "$findings"
common=(-max_total_time="$seconds" -rss_limit_mb=4096 -timeout=20 -print_final_stats=1
        -artifact_prefix="$findings/")

if [[ $allowed == "-" ]]; then
  exec "$fuzzer" "${common[@]}" "$@"
fi

"$fuzzer" "${common[@]}" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 "$@" \
  >"$findings/fuzz.log" 2>&1 || true
tail -n 5 "$findings/fuzz.log"
status=0
for input in "$findings"/crash-* "$findings"/leak-* "$findings"/timeout-* "$findings"/oom-*; do
  [[ -e $input ]] || continue
  report=$("$fuzzer" -timeout=20 -rss_limit_mb=4096 "$input" 2>&1 || true)
  frame=$(grep -E '^ +#[0-9]+ 0x' <<<"$report" |
    grep -vE '(in (__interceptor_|__asan|__sanitizer|fuzzer::|__memcpy|__memmove|__memset|__strlen|mem(cpy|move|set))|libc\.so)' |
    head -n 1 || true)
  if [[ -n $frame && $frame =~ $allowed ]]; then
    echo "known, inside an allowed library: $(basename "$input"): ${frame#"${frame%%[![:space:]]*}"}"
  else
    echo "FINDING: $(basename "$input")"
    echo "$report" | grep -E 'ERROR|SUMMARY|^ +#[0-9]+ 0x' | head -n 20
    status=1
  fi
done
exit $status
