// Portable conversions from mt19937 words to uniform, normal-ish and integer numbers.
#include "harness/zoo/seeded_random.h"

#include "runtime/base/check.h"

namespace onnxgate::zoo {

double SeededRandom::Uniform01() {
  // 27 + 26 bits make a 53-bit integer; dividing by 2^53 is exact.
  const uint64_t a = NextWord() >> 5;
  const uint64_t b = NextWord() >> 6;
  const uint64_t bits = (a << 26) | b;
  return static_cast<double>(bits) * (1.0 / 9007199254740992.0);
}

double SeededRandom::Normal() {
  double sum = 0.0;
  for (int i = 0; i < 12; ++i) sum += Uniform01();
  return sum - 6.0;
}

int64_t SeededRandom::UniformInt(int64_t lo, int64_t hi) {
  ONNXGATE_CHECK(hi > lo && hi - lo <= (int64_t{1} << 32));
  const uint64_t range = static_cast<uint64_t>(hi - lo);
  // Largest multiple of `range` that fits in 2^32: words at or above it are rejected.
  const uint64_t limit = ((uint64_t{1} << 32) / range) * range;
  uint64_t word;
  do {
    word = NextWord();
  } while (word >= limit);
  return lo + static_cast<int64_t>(word % range);
}

}  // namespace onnxgate::zoo
