// Parsing and validation of the Conv/pooling window attributes and the output geometry.
#include "runtime/provider/common/conv_attributes.h"

#include "runtime/provider/common/nn_util.h"

namespace onnxgate {

StatusOr<AutoPad> ParseAutoPad(const std::string& value) {
  if (value == "NOTSET") return AutoPad::kNotSet;
  if (value == "SAME_UPPER") return AutoPad::kSameUpper;
  if (value == "SAME_LOWER") return AutoPad::kSameLower;
  if (value == "VALID") return AutoPad::kValid;
  return InvalidArgument("auto_pad must be NOTSET, SAME_UPPER, SAME_LOWER or VALID, got '" + value +
                         "'");
}

namespace {

Status RequireAll(const char* attr, const std::vector<int64_t>& values, int64_t min) {
  for (int64_t v : values) {
    if (v < min) {
      return InvalidArgument(std::string("every value of '") + attr + "' must be >= " +
                             std::to_string(min) + ", got " + DimsToString(values));
    }
  }
  return OkStatus();
}

Status RequireLength(const char* attr, const std::vector<int64_t>& values, size_t expected,
                     const char* why) {
  if (!values.empty() && values.size() != expected) {
    return InvalidArgument(std::string("'") + attr + "' has " + std::to_string(values.size()) +
                           " values, expected " + std::to_string(expected) + " (" + why + ")");
  }
  return OkStatus();
}

int64_t CeilDiv(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }
int64_t FloorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -CeilDiv(-a, b); }

}  // namespace

StatusOr<ConvPoolAttributes> ParseConvPoolAttributes(const KernelInfo& info,
                                                     const ConvPoolAttributeSet& set) {
  for (const char* attr : {"dilations", "ceil_mode"}) {
    bool defined = std::string(attr) == "dilations" ? set.has_dilations : set.has_ceil_mode;
    if (!defined && info.has_attribute(attr)) {
      return InvalidArgument(std::string("attribute '") + attr +
                             "' is not defined at this op version");
    }
  }
  ConvPoolAttributes a;
  ONNXGATE_ASSIGN_OR_RETURN(std::string auto_pad,
                            info.GetString("auto_pad", std::string("NOTSET")));
  auto parsed = ParseAutoPad(auto_pad);
  if (!parsed.ok()) return parsed.status();
  a.auto_pad = *parsed;
  if (set.kernel_shape_required) {
    ONNXGATE_ASSIGN_OR_RETURN(a.kernel_shape, info.GetInts("kernel_shape"));
    if (a.kernel_shape.empty()) {
      return InvalidArgument("'kernel_shape' must not be empty");
    }
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(a.kernel_shape, info.GetInts("kernel_shape", std::vector<int64_t>{}));
  }
  ONNXGATE_ASSIGN_OR_RETURN(a.pads, info.GetInts("pads", std::vector<int64_t>{}));
  ONNXGATE_ASSIGN_OR_RETURN(a.strides, info.GetInts("strides", std::vector<int64_t>{}));
  if (set.has_dilations) {
    ONNXGATE_ASSIGN_OR_RETURN(a.dilations, info.GetInts("dilations", std::vector<int64_t>{}));
  }
  if (set.has_ceil_mode) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t ceil_mode, info.GetInt("ceil_mode", 0));
    if (ceil_mode != 0 && ceil_mode != 1) {
      return InvalidArgument("'ceil_mode' must be 0 or 1, got " + std::to_string(ceil_mode));
    }
    a.ceil_mode = ceil_mode == 1;
  }

  ONNXGATE_RETURN_IF_ERROR(RequireAll("kernel_shape", a.kernel_shape, 1));
  ONNXGATE_RETURN_IF_ERROR(RequireAll("pads", a.pads, 0));
  ONNXGATE_RETURN_IF_ERROR(RequireAll("strides", a.strides, 1));
  ONNXGATE_RETURN_IF_ERROR(RequireAll("dilations", a.dilations, 1));
  if (a.pads.size() % 2 != 0) {
    return InvalidArgument(
        "'pads' must have an even number of values "
        "(begin and end per spatial axis), got " +
        DimsToString(a.pads));
  }
  // Every given list must describe the same number of spatial axes.
  size_t rank = !a.kernel_shape.empty() ? a.kernel_shape.size()
                : !a.strides.empty()    ? a.strides.size()
                : !a.dilations.empty()  ? a.dilations.size()
                                        : a.pads.size() / 2;
  ONNXGATE_RETURN_IF_ERROR(RequireLength("strides", a.strides, rank, "one per spatial axis"));
  ONNXGATE_RETURN_IF_ERROR(RequireLength("dilations", a.dilations, rank, "one per spatial axis"));
  ONNXGATE_RETURN_IF_ERROR(
      RequireLength("pads", a.pads, 2 * rank, "begin and end per spatial axis"));
  if (a.auto_pad != AutoPad::kNotSet) {
    for (int64_t p : a.pads) {
      if (p != 0) {
        return InvalidArgument("explicit 'pads' " + DimsToString(a.pads) +
                               " cannot be combined with auto_pad " + auto_pad);
      }
    }
  }
  return a;
}

StatusOr<WindowGeometry> ResolveWindowGeometry(const ConvPoolAttributes& attrs,
                                               const std::vector<int64_t>& input_spatial,
                                               const std::vector<int64_t>& kernel_spatial) {
  const size_t rank = input_spatial.size();
  auto check_length = [&](const char* what, size_t got, size_t expected) -> Status {
    if (got != expected) {
      return InvalidArgument("'" + std::string(what) + "' describes " + std::to_string(got) +
                             " values but the input has " + std::to_string(rank) +
                             " spatial axes (expected " + std::to_string(expected) + ")");
    }
    return OkStatus();
  };
  if (rank == 0) return InvalidArgument("the input has no spatial axes");
  ONNXGATE_RETURN_IF_ERROR(check_length("kernel", kernel_spatial.size(), rank));
  if (!attrs.kernel_shape.empty()) {
    ONNXGATE_RETURN_IF_ERROR(check_length("kernel_shape", attrs.kernel_shape.size(), rank));
  }
  if (!attrs.strides.empty())
    ONNXGATE_RETURN_IF_ERROR(check_length("strides", attrs.strides.size(), rank));
  if (!attrs.dilations.empty()) {
    ONNXGATE_RETURN_IF_ERROR(check_length("dilations", attrs.dilations.size(), rank));
  }
  if (!attrs.pads.empty())
    ONNXGATE_RETURN_IF_ERROR(check_length("pads", attrs.pads.size(), 2 * rank));

  WindowGeometry g;
  g.input = input_spatial;
  g.kernel = kernel_spatial;
  g.strides = attrs.strides.empty() ? std::vector<int64_t>(rank, 1) : attrs.strides;
  g.dilations = attrs.dilations.empty() ? std::vector<int64_t>(rank, 1) : attrs.dilations;
  g.pad_begin.assign(rank, 0);
  g.pad_end.assign(rank, 0);
  g.output.assign(rank, 0);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t in = input_spatial[i];
    const int64_t stride = g.strides[i];
    const int64_t dilated = (kernel_spatial[i] - 1) * g.dilations[i] + 1;
    if (attrs.auto_pad == AutoPad::kSameUpper || attrs.auto_pad == AutoPad::kSameLower) {
      const int64_t out = CeilDiv(in, stride);
      const int64_t total = std::max<int64_t>(0, (out - 1) * stride + dilated - in);
      const int64_t smaller = total / 2;
      g.pad_begin[i] = attrs.auto_pad == AutoPad::kSameUpper ? smaller : total - smaller;
      g.pad_end[i] = total - g.pad_begin[i];
      g.output[i] = out;
      continue;
    }
    if (attrs.auto_pad == AutoPad::kNotSet && !attrs.pads.empty()) {
      g.pad_begin[i] = attrs.pads[i];
      g.pad_end[i] = attrs.pads[rank + i];
    }
    const int64_t span = in + g.pad_begin[i] + g.pad_end[i] - dilated;
    if (span < 0) {
      return InvalidArgument("on spatial axis " + std::to_string(i) + " the dilated kernel (" +
                             std::to_string(dilated) + ") is larger than the padded input (" +
                             std::to_string(in + g.pad_begin[i] + g.pad_end[i]) + ")");
    }
    // The pooling specs give VALID the same output size with and without ceil_mode:
    // ceil((in - dilated + 1) / stride) = floor((in - dilated) / stride) + 1.
    const bool ceil = attrs.ceil_mode && attrs.auto_pad != AutoPad::kValid;
    int64_t out = 1 + (ceil ? CeilDiv(span, stride) : FloorDiv(span, stride));
    // A window that would start past the input and its begin padding sees only end padding.
    if (ceil && (out - 1) * stride >= in + g.pad_begin[i]) --out;
    g.output[i] = out;
  }
  return g;
}

WindowGeometry GlobalWindowGeometry(const std::vector<int64_t>& input_spatial) {
  const size_t rank = input_spatial.size();
  WindowGeometry g;
  g.input = input_spatial;
  g.kernel = input_spatial;
  g.strides.assign(rank, 1);
  g.dilations.assign(rank, 1);
  g.pad_begin.assign(rank, 0);
  g.pad_end.assign(rank, 0);
  g.output.assign(rank, 1);
  return g;
}

StatusOr<std::vector<int64_t>> ConvKernelDims(const ConvPoolAttributes& attrs, int64_t group,
                                              const Shape& x, const Shape& w) {
  if (x.rank() < 3 || w.rank() != x.rank()) {
    return InvalidArgument("X must have rank >= 3 and W the same rank, got X " + x.ToString() +
                           " and W " + w.ToString());
  }
  const int64_t c = x[1], m = w[0];
  if (c % group != 0 || m % group != 0 || w[1] * group != c) {
    return InvalidArgument("with group = " + std::to_string(group) + ", X " + x.ToString() +
                           " and W " + w.ToString() +
                           " need C and M divisible by group and W[1] = C / group");
  }
  std::vector<int64_t> kernel(w.dims().begin() + 2, w.dims().end());
  for (int64_t k : kernel) {
    if (k < 1) return InvalidArgument("W " + w.ToString() + " has an empty spatial dim");
  }
  if (!attrs.kernel_shape.empty() && attrs.kernel_shape != kernel) {
    return InvalidArgument("kernel_shape " + DimsToString(attrs.kernel_shape) +
                           " does not match the spatial dims of W " + w.ToString());
  }
  return kernel;
}

}  // namespace onnxgate
