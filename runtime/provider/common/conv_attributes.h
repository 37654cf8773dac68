// The attributes Conv, ConvTranspose and the pooling ops share (kernel_shape, pads, strides,
// dilations, auto_pad, ceil_mode), their validation, and the output geometry they imply.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/base/shape.h"
#include "runtime/base/status.h"
#include "runtime/kernel/kernel_info.h"

namespace onnxgate {

enum class AutoPad { kNotSet, kSameUpper, kSameLower, kValid };

StatusOr<AutoPad> ParseAutoPad(const std::string& value);

// Which of the shared attributes an op version defines.
struct ConvPoolAttributeSet {
  bool kernel_shape_required = false;  // pooling ops; Conv infers it from W
  bool has_dilations = false;
  bool has_ceil_mode = false;
};

// The attributes as written on the node. Empty vectors mean "absent": the defaults (pads 0,
// strides 1, dilations 1) depend on the spatial rank, which is only known from the input.
struct ConvPoolAttributes {
  AutoPad auto_pad = AutoPad::kNotSet;
  std::vector<int64_t> kernel_shape;
  std::vector<int64_t> pads;  // [x1_begin, x2_begin, ..., x1_end, x2_end, ...]
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  bool ceil_mode = false;
};

// Reads and validates the attributes of `set` (values positive, pads non-negative, lengths
// consistent with each other, no explicit non-zero pads beside auto_pad). Attributes outside
// `set` are rejected, since the op version does not define them.
StatusOr<ConvPoolAttributes> ParseConvPoolAttributes(const KernelInfo& info,
                                                     const ConvPoolAttributeSet& set);

// Everything a sliding-window kernel needs per spatial axis, resolved for one input shape.
struct WindowGeometry {
  std::vector<int64_t> input;   // input spatial dims
  std::vector<int64_t> kernel;  // kernel spatial dims
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> pad_begin;  // resolved (auto_pad applied)
  std::vector<int64_t> pad_end;
  std::vector<int64_t> output;  // output spatial dims

  size_t rank() const { return input.size(); }
};

// Resolves the window geometry of a Conv or pooling op on `input_spatial` with
// `kernel_spatial` (from kernel_shape or from W):
//   NOTSET: out = floor((in + pad_begin + pad_end - dilated_kernel) / stride) + 1, or ceil with
//           ceil_mode, where a last window starting beyond the input and begin padding is dropped
//           (as later ONNX versions spell out, and as ONNX Runtime and PyTorch do);
//   VALID: the same with zero pads and always floor (the pooling specs give VALID one size
//   whatever ceil_mode says); SAME_UPPER/SAME_LOWER: out = ceil(in / stride), the padding
//   needed for that split in two with the odd one at the end (UPPER) or the beginning (LOWER).
// InvalidArgument when lengths disagree with the spatial rank or no window fits.
StatusOr<WindowGeometry> ResolveWindowGeometry(const ConvPoolAttributes& attrs,
                                               const std::vector<int64_t>& input_spatial,
                                               const std::vector<int64_t>& kernel_spatial);

// The one window of a global pooling op: all of `input_spatial`, no pads, one output each.
WindowGeometry GlobalWindowGeometry(const std::vector<int64_t>& input_spatial);

// Conv's checks of X [N, C, spatial...] and W [M, C / group, kernel...]: ranks (at least 3, the
// same), C and M divisible by `group` with W[1] = C / group, no empty kernel dim, and
// kernel_shape (when given) equal to W's spatial dims. W's spatial dims, or InvalidArgument
// saying what disagrees (without the op's name: the caller adds it where it wants it).
StatusOr<std::vector<int64_t>> ConvKernelDims(const ConvPoolAttributes& attrs, int64_t group,
                                              const Shape& x, const Shape& w);

}  // namespace onnxgate
