// The granularity of QuantizeLinear's and DequantizeLinear's scale and zero point.
#include "runtime/ep/ref/kernels/quantization/quant_params.h"

#include <string>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

namespace {

// A scalar, or a 1-D tensor of one element: the per-tensor shapes.
bool IsSingleValue(const Shape& s) { return s.rank() == 0 || (s.rank() == 1 && s[0] == 1); }

}  // namespace

Status CheckAttributeSince(const KernelInfo& info, const char* name, int since) {
  if (info.since_version() < since && info.has_attribute(name)) {
    return InvalidArgument(std::string("'") + name + "' exists from opset " +
                           std::to_string(since));
  }
  return OkStatus();
}

StatusOr<QuantLayoutRules> ReadQuantLayoutRules(const KernelInfo& info) {
  ONNXGATE_RETURN_IF_ERROR(CheckAttributeSince(info, "axis", 13));
  ONNXGATE_RETURN_IF_ERROR(CheckAttributeSince(info, "block_size", 21));
  QuantLayoutRules rules;
  rules.per_axis = info.since_version() >= 13;
  ONNXGATE_ASSIGN_OR_RETURN(rules.axis, info.GetInt("axis", 1));
  ONNXGATE_ASSIGN_OR_RETURN(rules.block_size, info.GetInt("block_size", 0));
  if (rules.block_size < 0) {
    return InvalidArgument(
        "'block_size' must be a positive integer (or 0 "
        "for per-tensor and per-axis quantization), got " +
        std::to_string(rules.block_size));
  }
  return rules;
}

StatusOr<QuantLayout> ResolveQuantLayout(const Shape& x, const Shape& scale,
                                         const Tensor* zero_point, const QuantLayoutRules& rules,
                                         const char* scale_name, const char* zero_point_name) {
  if (zero_point != nullptr && zero_point->shape() != scale &&
      !(IsSingleValue(zero_point->shape()) && IsSingleValue(scale))) {
    return InvalidArgument(std::string("'") + zero_point_name + "' has shape " +
                           zero_point->shape().ToString() + ", but it must have the shape of '" +
                           scale_name + "' " + scale.ToString());
  }
  QuantLayout layout;
  if (scale.rank() == 0 || (rules.block_size == 0 && IsSingleValue(scale))) return layout;
  if (!rules.per_axis) {
    return InvalidArgument(std::string("'") + scale_name +
                           "' must be a scalar before opset 13, got shape " + scale.ToString());
  }
  if (rules.block_size == 0 && scale.rank() != 1) {
    return InvalidArgument(std::string("'") + scale_name + "' of shape " + scale.ToString() +
                           " must be a scalar or a 1-D tensor, or 'block_size' must be set for "
                           "blocked quantization");
  }
  const int64_t rank = static_cast<int64_t>(x.rank());
  if (rank == 0) {
    return InvalidArgument(std::string("a scalar x takes a scalar '") + scale_name +
                           "', got shape " + scale.ToString());
  }
  ONNXGATE_ASSIGN_OR_RETURN(const int64_t axis,
                            NormalizeAxisOf(rules.axis, rank, /*allow_negative=*/true));
  layout.axis_dim = x[axis];
  for (int64_t d = axis + 1; d < rank; ++d) layout.inner *= x[d];
  if (rules.block_size == 0) {
    if (scale[0] != x[axis]) {
      return InvalidArgument(std::string("a 1-D '") + scale_name + "' of " +
                             std::to_string(scale[0]) + " elements must match the size of axis " +
                             std::to_string(axis) + " of x " + x.ToString());
    }
    layout.mode = QuantLayout::Mode::kPerAxis;
    return layout;
  }
  // Blocked: the scale has x's shape except ceil(D / block_size) along the axis, which is what the
  // schema's accepted range of block_size, [ceil(D/S), ceil(D/(S-1))-1], amounts to.
  if (scale.rank() != x.rank()) {
    return InvalidArgument(std::string("blocked quantization needs '") + scale_name +
                           "' of x's rank " + std::to_string(rank) + ", got shape " +
                           scale.ToString());
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (d != axis && scale[d] != x[d]) {
      return InvalidArgument(std::string("blocked quantization along axis ") +
                             std::to_string(axis) + ": '" + scale_name + "' of shape " +
                             scale.ToString() + " must match x " + x.ToString() +
                             " in every other dimension");
    }
  }
  const int64_t blocks = (x[axis] + rules.block_size - 1) / rules.block_size;
  if (scale[axis] != blocks) {
    return InvalidArgument("block_size " + std::to_string(rules.block_size) + " splits axis " +
                           std::to_string(axis) + " of x " + x.ToString() + " into " +
                           std::to_string(blocks) + " blocks, but '" + scale_name + "' has shape " +
                           scale.ToString());
  }
  layout.mode = QuantLayout::Mode::kBlocked;
  layout.block = rules.block_size;
  layout.scale_axis_dim = blocks;
  return layout;
}

std::vector<double> ElementsAsDoubles(const Tensor& t) {
  std::vector<double> out(static_cast<size_t>(t.NumElements()));
  for (size_t i = 0; i < out.size(); ++i) out[i] = t.ElementAsDouble(static_cast<int64_t>(i));
  return out;
}

double RoundToFloatType(double v, DataType type) {
  switch (type) {
    case DataType::kFloat: return static_cast<float>(v);
    case DataType::kFloat16: return Float16::FromFloat(static_cast<float>(v)).ToFloat();
    case DataType::kBFloat16: return BFloat16::FromFloat(static_cast<float>(v)).ToFloat();
    default: return v;
  }
}

}  // namespace onnxgate::ref
