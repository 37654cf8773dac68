// The default atol of recorded cases (see recorded_tolerance.h).
#include "harness/models/recorded_tolerance.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "runtime/base/data_type.h"

namespace onnxgate {

namespace {

// The finite nonzero |value|s of a floating-point output (an exact 0 is compared exactly by any
// atol, so it does not make an atol vacuous); empty for any other value.
std::vector<double> Magnitudes(const Value& value) {
  std::vector<double> out;
  if (!value.is_tensor() || !IsFloatingPoint(value.tensor().dtype())) return out;
  const Tensor& t = value.tensor();
  out.reserve(static_cast<size_t>(t.NumElements()));
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    const double v = std::fabs(t.ElementAsDouble(i));
    if (std::isfinite(v) && v > 0) out.push_back(v);
  }
  return out;
}

std::string Short(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.2g", v);
  return buffer;
}

}  // namespace

std::optional<double> LargestOutputMagnitude(const std::vector<GoldenSet>& sets) {
  std::optional<double> largest;
  for (const GoldenSet& set : sets) {
    for (const GoldenValue& out : set.outputs) {
      for (double v : Magnitudes(out.value)) largest = std::max(largest.value_or(0.0), v);
    }
  }
  return largest;
}

double ScaledDefaultAtol(double largest) {
  const double atol = std::max(1e-7, 1e-6 * largest);
  const int exponent = static_cast<int>(std::floor(std::log10(atol)));
  // The leading digit, rounded up; a hair of slack so 3e-6 stays 3e-6.
  int digit = static_cast<int>(std::ceil(atol / std::pow(10.0, exponent) - 1e-9));
  int power = exponent;
  if (digit >= 10) {
    digit = 1;
    ++power;
  }
  // Through text, so the value is the double nearest "4e-06", as JSON will show it.
  return std::stod(std::to_string(digit) + "e" + std::to_string(power));
}

std::vector<std::string> VacuousAtolWarnings(const std::vector<GoldenSet>& sets, double atol) {
  std::vector<std::string> warnings;
  std::set<std::string> seen;
  for (const GoldenSet& set : sets) {
    for (const GoldenValue& out : set.outputs) {
      std::vector<double> m = Magnitudes(out.value);
      if (m.empty() || !seen.insert(out.name).second) continue;
      std::nth_element(m.begin(), m.begin() + m.size() / 2, m.end());
      const double median = m[m.size() / 2];
      if (atol <= median) continue;
      warnings.push_back("atol " + Short(atol) + " is larger than most nonzero values of output '" +
                         out.name + "' (median |value| " + Short(median) +
                         "): a wrong result of that size passes; give a smaller --atol");
    }
  }
  return warnings;
}

}  // namespace onnxgate
