// The atol a recorded case gets when none is given, scaled to its outputs' magnitude, and the
// warning for an atol that is vacuous for an output: ONNX's default atol of 1e-7 fails correct
// results on outputs near 1 (a dnnl logit 5e-7 away), and any atol larger than most of an
// output's values passes whatever the runtime returns there.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "golden/golden_file.h"

namespace onnxgate {

// The largest finite |value| over the floating-point outputs of every set; nullopt when no set
// has a floating-point output with a finite value.
std::optional<double> LargestOutputMagnitude(const std::vector<GoldenSet>& sets);

// max(1e-7, 1e-6 * largest), rounded up to one significant digit: 1e-7 up to outputs of
// magnitude 0.1, 4e-6 for a largest |value| of 3.7, 2e-3 for 1500.
double ScaledDefaultAtol(double largest);

// One warning for each floating-point output (named once, from the first set that has it) whose
// median nonzero |value| is below `atol`: a difference of the output's own size passes unnoticed
// there. Exact zeros are left out (a Relu's), as they are compared exactly under any atol.
std::vector<std::string> VacuousAtolWarnings(const std::vector<GoldenSet>& sets, double atol);

}  // namespace onnxgate
