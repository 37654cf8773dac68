// The granularity of QuantizeLinear's and DequantizeLinear's scale and zero point: per tensor,
// per axis (opset 13) or blocked (opset 21), resolved from the shapes of x and the scale.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/base/shape.h"
#include "runtime/base/status.h"
#include "runtime/base/tensor.h"
#include "runtime/kernel/kernel_info.h"

namespace onnxgate::ref {

// Which scale (and zero point) element each element of x uses.
struct QuantLayout {
  enum class Mode { kPerTensor, kPerAxis, kBlocked };
  Mode mode = Mode::kPerTensor;
  int64_t axis_dim = 1;        // x's size along the quantization axis
  int64_t inner = 1;           // product of x's dims after the axis
  int64_t block = 1;           // elements of the axis sharing one scale (kBlocked)
  int64_t scale_axis_dim = 1;  // the scale's size along the axis (kBlocked)

  // The flat index into the scale and zero point of x's flat element i.
  int64_t ParamIndex(int64_t i) const {
    if (mode == Mode::kPerTensor) return 0;
    const int64_t a = (i / inner) % axis_dim;
    if (mode == Mode::kPerAxis) return a;
    const int64_t outer = i / (inner * axis_dim);
    return (outer * scale_axis_dim + a / block) * inner + i % inner;
  }
};

// What the op version allows, and the attributes that pick the granularity.
struct QuantLayoutRules {
  bool per_axis = false;   // a 1-D scale along `axis` (opset 13)
  int64_t axis = 1;        // the attribute, not yet normalised
  int64_t block_size = 0;  // > 0: blocked quantization (opset 21)
};

// Reads 'axis' (from opset 13) and 'block_size' (from opset 21, non-negative); an attribute the
// node's version does not have is an error naming it.
StatusOr<QuantLayoutRules> ReadQuantLayoutRules(const KernelInfo& info);

// InvalidArgument naming the node and `name` when the node sets an attribute that exists only
// from opset `since`.
Status CheckAttributeSince(const KernelInfo& info, const char* name, int since);

// Resolves the layout: a scalar (or one-element 1-D) scale is per tensor; with block_size 0 a
// 1-D scale runs along `axis` and must have x's size there; with block_size B > 0 the scale has
// x's rank and shape except ceil(D / B) along `axis`. The zero point, when given, must have the
// scale's shape (a scalar and a one-element 1-D tensor both count as per-tensor). InvalidArgument
// naming `scale_name` and the mismatch otherwise.
StatusOr<QuantLayout> ResolveQuantLayout(const Shape& x, const Shape& scale,
                                         const Tensor* zero_point, const QuantLayoutRules& rules,
                                         const char* scale_name, const char* zero_point_name);

// The elements of a numeric tensor (any float, integer, 8-bit, 4-bit or 2-bit type) as doubles.
std::vector<double> ElementsAsDoubles(const Tensor& t);

// Rounds `v` to the nearest value of float type `type` (FLOAT, FLOAT16, BFLOAT16; DOUBLE and
// other types keep `v`).
double RoundToFloatType(double v, DataType type);

}  // namespace onnxgate::ref
