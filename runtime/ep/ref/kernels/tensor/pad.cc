// Pad: each output axis maps to a source coordinate (or to the constant), then one gather.
#include "runtime/ep/ref/kernels/tensor/pad.h"

#include <algorithm>

#include "runtime/provider/common/compute_type.h"
#include "runtime/provider/common/indexing_util.h"
#include "runtime/provider/common/strided_copy.h"

namespace onnxgate::ref {

namespace {

// Coordinate c (any integer) reflected into [0, n) without repeating the edge, as numpy's
// "reflect": period 2 * (n - 1), so pads wider than the axis keep bouncing.
int64_t Reflect(int64_t c, int64_t n) {
  if (n == 1) return 0;
  const int64_t period = 2 * (n - 1);
  int64_t m = c % period;
  if (m < 0) m += period;
  return m < n ? m : period - m;
}

// Coordinate c (any integer) wrapped into [0, n), as if the axis were a ring.
int64_t Wrap(int64_t c, int64_t n) {
  int64_t m = c % n;
  return m < 0 ? m + n : m;
}

StatusOr<PadMode> ParseMode(const std::string& mode, int version) {
  if (mode == "constant") return PadMode::kConstant;
  if (mode == "reflect") return PadMode::kReflect;
  if (mode == "edge") return PadMode::kEdge;
  if (mode == "wrap" && version >= 19) return PadMode::kWrap;
  return InvalidArgument(std::string("attribute 'mode' must be ") +
                         (version >= 19 ? "constant, reflect, edge or wrap"
                                        : "constant, reflect or edge (wrap exists from opset 19)") +
                         ", got '" + mode + "'");
}

// The 2 * rank pads of every axis from pads that apply to `axes` only (Pad-18's axes input).
StatusOr<std::vector<int64_t>> PadsOfAllAxes(const std::vector<int64_t>& pads,
                                             const std::vector<int64_t>& axes, int64_t rank) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> normalized,
                            NormalizeAxesOf(axes, rank, /*allow_negative=*/true));
  const size_t n = normalized.size();
  if (pads.size() != 2 * n) {
    return InvalidArgument("pads must have 2 * " + std::to_string(n) + " entries for the axes " +
                           ListToString(axes) + ", got " + ListToString(pads));
  }
  std::vector<int64_t> full(static_cast<size_t>(2 * rank), 0);
  for (size_t i = 0; i < n; ++i) {
    full[static_cast<size_t>(normalized[i])] = pads[i];
    full[static_cast<size_t>(normalized[i] + rank)] = pads[i + n];
  }
  return full;
}

}  // namespace

StatusOr<Tensor> Pad(const Tensor& data, const std::vector<int64_t>& pads, PadMode mode,
                     const Tensor* constant) {
  const Shape& s = data.shape();
  const size_t rank = s.rank();
  if (pads.size() != 2 * rank) {
    return InvalidArgument("pads must have 2 * rank = " + std::to_string(2 * rank) +
                           " entries for data " + s.ToString() + ", got " + ListToString(pads));
  }
  std::vector<std::vector<int64_t>> maps(rank);
  std::vector<int64_t> out_dims(rank);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t begin = pads[d], end = pads[d + rank];
    // Negative pads crop; what is left is [crop_begin, crop_begin + kept) of the source axis.
    const int64_t crop_begin = std::max<int64_t>(0, -begin);
    const int64_t kept = s[d] - crop_begin - std::max<int64_t>(0, -end);
    if (kept < 0) {
      return InvalidArgument("pads " + ListToString(pads) + " remove more than the " +
                             std::to_string(s[d]) + " elements of axis " + std::to_string(d));
    }
    const int64_t add_begin = std::max<int64_t>(0, begin);
    out_dims[d] = kept + add_begin + std::max<int64_t>(0, end);
    if (out_dims[d] > kept && kept == 0 && mode != PadMode::kConstant) {
      return InvalidArgument("axis " + std::to_string(d) +
                             " is empty, so reflect, edge or wrap padding has nothing to copy");
    }
    maps[d].resize(static_cast<size_t>(out_dims[d]));
    for (int64_t o = 0; o < out_dims[d]; ++o) {
      const int64_t c = o - add_begin;  // coordinate in the cropped axis
      int64_t src;
      if (c >= 0 && c < kept) {
        src = c;
      } else if (mode == PadMode::kConstant) {
        src = -1;
      } else if (mode == PadMode::kEdge) {
        src = std::clamp<int64_t>(c, 0, kept - 1);
      } else if (mode == PadMode::kWrap) {
        src = Wrap(c, kept);
      } else {
        src = Reflect(c, kept);
      }
      maps[d][static_cast<size_t>(o)] = src < 0 ? -1 : src + crop_begin;
    }
  }
  Tensor zero;
  if (constant == nullptr) {
    zero = Tensor(data.dtype(), Shape{});
    constant = &zero;
  }
  if (constant->dtype() != data.dtype() || constant->NumElements() != 1) {
    return InvalidArgument(std::string("the constant must be one ") +
                           DataTypeShortName(data.dtype()) + " element, got " +
                           DataTypeShortName(constant->dtype()) + constant->shape().ToString());
  }
  Shape out_shape(std::move(out_dims));
  // Bound the index table (one int64 per output element) before building it.
  ONNXGATE_RETURN_IF_ERROR(
      out_shape.Validate(kMaxOutputBytes / static_cast<int64_t>(sizeof(int64_t))));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor out, NewTensor(data.dtype(), out_shape));
  const std::vector<int64_t> from = FlatIndexFromAxisMaps(s, maps);
  const int64_t count = static_cast<int64_t>(from.size());
  // Elements move one by one (the packed sub-byte types share bytes): the constant, then data.
  WithElementMover(*constant, &out, [&](auto move) {
    for (int64_t i = 0; i < count; ++i) {
      if (from[i] < 0) move(0, i);
    }
  });
  WithElementMover(data, &out, [&](auto move) {
    for (int64_t i = 0; i < count; ++i) {
      if (from[i] >= 0) move(from[i], i);
    }
  });
  return out;
}

StatusOr<std::unique_ptr<OpKernel>> PadKernel::Create(const KernelInfo& info) {
  const int version = info.since_version();
  ONNXGATE_ASSIGN_OR_RETURN(std::string mode_name, info.GetString("mode", std::string("constant")));
  auto mode = ParseMode(mode_name, version);
  if (!mode.ok()) return mode.status();
  if (version >= 11) {
    return std::unique_ptr<OpKernel>(new PadKernel(version, *mode, true, {}, 0.0f));
  }
  // Pad-1 calls the attribute 'paddings', Pad-2 'pads'; both are required.
  const char* pads_name = version >= 2 ? "pads" : "paddings";
  if (!info.has_attribute(pads_name)) {
    return InvalidArgument(std::string("the '") + pads_name + "' attribute is required");
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> pads, info.GetInts(pads_name));
  ONNXGATE_ASSIGN_OR_RETURN(float value, info.GetFloat("value", 0.0f));
  return std::unique_ptr<OpKernel>(new PadKernel(version, *mode, false, std::move(pads), value));
}

Status PadKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* data, GetInput(ctx, 0, "data"));
  std::vector<int64_t> pads = pads_;
  Tensor constant;
  if (from_inputs_) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* pads_tensor, GetInput(ctx, 1, "pads"));
    if (pads_tensor->dtype() != DataType::kInt64) {
      return InvalidArgument(std::string("'pads' must be int64, got ") +
                             DataTypeShortName(pads_tensor->dtype()));
    }
    ONNXGATE_ASSIGN_OR_RETURN(pads, ToInt64List(*pads_tensor, "pads"));
    if (const Tensor* c = ctx.input_tensor(2)) {
      if (c->NumElements() != 1 || c->dtype() != data->dtype()) {
        return InvalidArgument(std::string("'constant_value' must be one ") +
                               DataTypeShortName(data->dtype()) + " value, got " +
                               DataTypeShortName(c->dtype()) + c->shape().ToString());
      }
      constant = c->Reshaped(Shape{});
    }
    if (version_ >= 18 && ctx.has_input(3)) {
      ONNXGATE_ASSIGN_OR_RETURN(const Tensor* axes_tensor, GetInput(ctx, 3, "axes"));
      if (axes_tensor->dtype() != DataType::kInt32 && axes_tensor->dtype() != DataType::kInt64) {
        return InvalidArgument(std::string("'axes' must be int32 or int64, got ") +
                               DataTypeShortName(axes_tensor->dtype()));
      }
      ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> axes, ToInt64List(*axes_tensor, "axes"));
      const int64_t rank = static_cast<int64_t>(data->shape().rank());
      ONNXGATE_ASSIGN_OR_RETURN(pads, PadsOfAllAxes(pads, axes, rank));
    }
  } else {
    Status st = VisitFloatTypes(data->dtype(), [&](auto tag) {
      using T = decltype(tag);
      constant = Tensor::Scalar<T>(FromCompute<T>(static_cast<ComputeType<T>>(value_)));
      return OkStatus();
    });
    ONNXGATE_RETURN_IF_ERROR(st);
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y,
                            Pad(*data, pads, mode_, constant.defined() ? &constant : nullptr));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
