// Comparison of actual outputs with expected ones under rtol/atol, with the numbers a report needs:
// max errors, mismatch count, the worst element and the smallest tolerances that would pass.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "conformance/tolerances.h"
#include "runtime/base/tensor.h"
#include "runtime/base/value.h"

namespace onnxgate {

// One element, for messages.
struct ElementReport {
  int64_t flat_index = -1;     // -1: there is no such element
  std::vector<int64_t> index;  // row-major multi-dimensional index
  std::string expected;        // shortest text that reads back as the same value
  std::string actual;
};

// The comparison of one tensor.
//
// Rules: dtype and shape must match exactly. float, double, float16 and bfloat16 (through float),
// the 8-bit floats and FLOAT4E2M1 (decoded to float) and both components of complex values pass
// where |actual - expected| <= atol + rtol * |expected|, computed in double; NaN matches only NaN
// (for FNUZ types the code 0x80, for FLOAT8E8M0 0xFF) and an infinity only the same infinity.
// Integers (INT4/UINT4/INT2/UINT2 on their unpacked values), bools and strings must be equal
// whatever the tolerance.
struct TensorComparison {
  std::string path;  // where the tensor sits in the value: "" or "[2]" (sequence item)
  bool passed = false;
  std::string structure_error;  // non-empty when kind, dtype or shape differ: nothing compared
  int64_t total_elements = 0;   // elements of the expected tensor
  // Elements that fail the rule. A structure error counts every expected element as mismatched.
  int64_t mismatches = 0;
  // Largest |actual - expected|; inf when a NaN or an infinity is unmatched or the structure
  // differs. For complex values, the larger of the component errors. 0 for strings.
  double max_abs_error = 0;
  // Largest |actual - expected| / |expected| over elements whose expected value is not 0 (an
  // error against 0 has no relative size; it shows in max_abs_error and min_passing_atol).
  // inf as for max_abs_error.
  double max_rel_error = 0;
  // The element furthest outside its tolerance: largest |a - e| / (atol + rtol |e|), where an
  // unmatched NaN or infinity, or any difference under a zero allowance, is infinitely far and
  // the first of equals wins. For integers the largest difference; for bools and strings the
  // first difference. flat_index is -1 when every element is exactly equal.
  ElementReport worst;
  // Smallest rtol that would pass with the given atol, and smallest atol with the given rtol.
  // 0 when nothing differs; inf when no value would do (NaN against a number, an infinity against
  // a finite value, integers, bools or strings that differ, a structure error, or for rtol an
  // error against an expected 0 larger than atol). Exact up to the last bit of double rounding.
  double min_passing_rtol = 0;
  double min_passing_atol = 0;
  // One line: "max abs 0.032, max rel 0.11, 3/24 (12.5%) mismatches, worst at [0,1,2]: expected
  // 0.5 got 0.532, would pass with rtol>=0.064 or atol>=0.032".
  std::string summary;
};

// The comparison of one output value: one part per tensor compared (a tensor value has one part,
// a sequence one per item, an optional those of its content). Structural differences of the value
// itself (kind, sequence length, optional presence) are a part with path "" and structure_error.
struct ValueComparison {
  bool passed = false;
  std::vector<TensorComparison> parts;
  // Over all parts: sums of the counts, maxima of the errors and of the passing tolerances.
  int64_t total_elements = 0;
  int64_t mismatches = 0;
  double max_abs_error = 0;
  double max_rel_error = 0;
  double min_passing_rtol = 0;
  double min_passing_atol = 0;
  // One line: the first failing part's summary with its path ("[2]: shape [3] expected, got
  // [4]"), or when everything passed the single part's summary or a total over the items.
  std::string summary;
};

TensorComparison CompareTensors(const Tensor& actual, const Tensor& expected,
                                const Tolerance& tolerance);
ValueComparison CompareValues(const Value& actual, const Value& expected,
                              const Tolerance& tolerance);

// A number with two significant digits for summaries ("0.032", "1.1e-7", "inf"); with
// `round_up`, rounded away from zero so that a suggested tolerance really passes.
std::string FormatShort(double x, bool round_up = false);

}  // namespace onnxgate
