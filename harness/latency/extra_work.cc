// Calibrated busy work for the test-only extra-work option.
#include "harness/latency/extra_work.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace onnxgate {

namespace {
volatile uint64_t g_sink = 0;
}  // namespace

void RunBusyWork(int64_t units) {
  uint64_t x = 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(units);
  for (int64_t i = 0; i < units; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  g_sink = g_sink + x;
}

double BusyWorkUnitsPerMs() {
  using Clock = std::chrono::steady_clock;
  constexpr int64_t kUnits = 2000000;  // a few milliseconds per trial
  std::vector<double> rates;
  RunBusyWork(kUnits);  // warm the core and its frequency
  for (int trial = 0; trial < 7; ++trial) {
    const auto start = Clock::now();
    RunBusyWork(kUnits);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    rates.push_back(static_cast<double>(kUnits) / std::max(ms, 1e-6));
  }
  std::nth_element(rates.begin(), rates.begin() + 3, rates.end());
  return rates[3];
}

}  // namespace onnxgate
