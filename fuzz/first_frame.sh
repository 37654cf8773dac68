# Sourced by run_fuzzer.sh and replay_regressions.sh: the first stack frame of a sanitizer or
# libFuzzer report that lies outside libFuzzer, the sanitizer runtime and libc, which names the
# code that crashed, hung or allocated.
#
#   first_frame <log file>   prints the frame line, or nothing when the report has no such frame
first_frame() {
  sed -n '/ERROR: /,$p' "$1" | grep -E '^ +#[0-9]+ 0x' |
    grep -vE '(in (__interceptor_|__asan|__sanitizer|fuzzer::|__memcpy|__memmove|__memset|__strlen|mem(cpy|move|set)|strn?dup|malloc|calloc|realloc|operator new)|libc\.so)' |
    head -n 1 || true
}
