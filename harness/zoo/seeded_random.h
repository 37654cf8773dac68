// Seeded random numbers that are the same on every platform and standard library: the zoo's
// weights must be byte-identical wherever the models are generated.
#pragma once

#include <cstdint>
#include <random>

namespace onnxgate::zoo {

// std::mt19937's output sequence is fixed by the C++ standard, but the standard distributions
// (uniform_real_distribution, normal_distribution) are not: libstdc++, libc++ and MSVC give
// different numbers for the same engine. So the conversions from engine words to numbers are
// written here with integer arithmetic and exactly rounded IEEE operations only (no log, cos or
// sqrt, whose last bit may differ between maths libraries).
class SeededRandom {
 public:
  explicit SeededRandom(uint32_t seed) : engine_(seed) {}

  // The next raw 32-bit word of the engine.
  uint32_t NextWord() { return static_cast<uint32_t>(engine_()); }

  // Uniform in [0, 1) with 53 random bits: exact in double.
  double Uniform01();

  // Uniform in [lo, hi).
  double Uniform(double lo, double hi) { return lo + (hi - lo) * Uniform01(); }

  // Approximately standard normal: the Irwin-Hall sum of 12 uniforms minus 6 (mean 0, variance
  // 1, support [-6, 6]). Good enough for weights; only additions, so it is exact everywhere.
  double Normal();

  // Uniform integer in [lo, hi), by rejection so that every value is equally likely.
  int64_t UniformInt(int64_t lo, int64_t hi);

 private:
  std::mt19937 engine_;
};

}  // namespace onnxgate::zoo
