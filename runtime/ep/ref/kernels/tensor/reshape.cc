// Reshape, Flatten, Squeeze and Unsqueeze.
#include "runtime/ep/ref/kernels/tensor/reshape.h"

namespace onnxgate::ref {

StatusOr<Shape> ReshapeShape(const Shape& input, const std::vector<int64_t>& requested,
                             bool allow_zero) {
  std::vector<int64_t> dims(requested.size());
  int64_t infer_at = -1;
  bool has_zero = false;
  int64_t known = 1;  // product of the dims other than -1
  for (size_t i = 0; i < requested.size(); ++i) {
    int64_t d = requested[i];
    if (d == -1) {
      if (infer_at >= 0) {
        return InvalidArgument("shape " + ListToString(requested) + " has more than one -1");
      }
      infer_at = static_cast<int64_t>(i);
      continue;
    }
    if (d < -1) {
      return InvalidArgument("shape " + ListToString(requested) + " has the negative dim " +
                             std::to_string(d));
    }
    if (d == 0 && !allow_zero) {
      if (i >= input.rank()) {
        return InvalidArgument("shape " + ListToString(requested) + " copies dim " +
                               std::to_string(i) + " with 0, but the input " + input.ToString() +
                               " has rank " + std::to_string(input.rank()));
      }
      d = input[i];
    }
    has_zero = has_zero || requested[i] == 0;
    dims[i] = d;
    ONNXGATE_ASSIGN_OR_RETURN(Shape partial, StatusOr<Shape>(Shape({known, d})));
    ONNXGATE_RETURN_IF_ERROR(partial.Validate());
    known *= d;
  }
  if (allow_zero && has_zero && infer_at >= 0) {
    return InvalidArgument("with allowzero=1 the shape " + ListToString(requested) +
                           " may not hold both 0 and -1");
  }
  const int64_t count = input.NumElements();
  if (infer_at >= 0) {
    if (known == 0 || count % known != 0) {
      return InvalidArgument("cannot infer the -1 in " + ListToString(requested) +
                             " for the input " + input.ToString() + " of " + std::to_string(count) +
                             " elements");
    }
    dims[infer_at] = count / known;
  } else if (known != count) {
    return InvalidArgument("cannot reshape " + input.ToString() + " (" + std::to_string(count) +
                           " elements) to " + ListToString(requested) + " (" +
                           std::to_string(known) + " elements)");
  }
  return Shape(std::move(dims));
}

StatusOr<Shape> FlattenShape(const Shape& input, int64_t axis, bool allow_negative) {
  const int64_t rank = static_cast<int64_t>(input.rank());
  int64_t a = axis;
  if (a < 0 && allow_negative) a += rank;
  if (a < 0 || a > rank) {
    return InvalidArgument("axis " + std::to_string(axis) + " is out of range for rank " +
                           std::to_string(rank) +
                           (allow_negative ? " (allowed: [-r, r])" : " (allowed: [0, r])"));
  }
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < rank; ++d) (d < a ? outer : inner) *= input[d];
  return Shape({outer, inner});
}

StatusOr<Shape> SqueezeShape(const Shape& input, const std::optional<std::vector<int64_t>>& axes,
                             bool allow_negative) {
  const int64_t rank = static_cast<int64_t>(input.rank());
  std::vector<bool> drop(input.rank(), false);
  if (axes) {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> normalized,
                              NormalizeAxesOf(*axes, rank, allow_negative));
    for (int64_t a : normalized) {
      if (rank == 0 || input[a] != 1) {
        return InvalidArgument("cannot squeeze dim " + std::to_string(a) + " of " +
                               input.ToString() + ": its size is not 1");
      }
      drop[a] = true;
    }
  } else {
    for (int64_t d = 0; d < rank; ++d) drop[d] = input[d] == 1;
  }
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (!drop[d]) dims.push_back(input[d]);
  }
  return Shape(std::move(dims));
}

StatusOr<Shape> UnsqueezeShape(const Shape& input, const std::vector<int64_t>& axes,
                               bool allow_negative) {
  const int64_t out_rank = static_cast<int64_t>(input.rank() + axes.size());
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> normalized,
                            NormalizeAxesOf(axes, out_rank, allow_negative));
  std::vector<bool> inserted(static_cast<size_t>(out_rank), false);
  for (int64_t a : normalized) inserted[a] = true;
  std::vector<int64_t> dims;
  size_t next = 0;
  for (int64_t d = 0; d < out_rank; ++d) dims.push_back(inserted[d] ? 1 : input[next++]);
  return Shape(std::move(dims));
}

StatusOr<std::unique_ptr<OpKernel>> ReshapeKernel::Create(const KernelInfo& info) {
  std::optional<std::vector<int64_t>> shape_attr;
  if (info.since_version() < 5) {
    ONNXGATE_ASSIGN_OR_RETURN(shape_attr, info.GetInts("shape"));
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t allow_zero, info.GetInt("allowzero", 0));
  if (allow_zero != 0 && info.since_version() < 14) {
    return InvalidArgument("attribute 'allowzero' exists from opset 14");
  }
  return std::unique_ptr<OpKernel>(new ReshapeKernel(std::move(shape_attr), allow_zero != 0));
}

Status ReshapeKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* data, GetInput(ctx, 0, "data"));
  std::vector<int64_t> requested;
  if (shape_attr_) {
    requested = *shape_attr_;
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* shape, GetInput(ctx, 1, "shape"));
    if (shape->dtype() != DataType::kInt64) {
      return InvalidArgument(std::string("'shape' must be int64, got ") +
                             DataTypeShortName(shape->dtype()));
    }
    ONNXGATE_ASSIGN_OR_RETURN(requested, ToInt64List(*shape, "shape"));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Shape out, ReshapeShape(data->shape(), requested, allow_zero_));
  ctx.set_output(0, data->Reshaped(std::move(out)));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> FlattenKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", 1));
  return std::unique_ptr<OpKernel>(new FlattenKernel(axis, info.since_version() >= 11));
}

Status FlattenKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(Shape out, FlattenShape(x->shape(), axis_, allow_negative_));
  ctx.set_output(0, x->Reshaped(std::move(out)));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> SqueezeKernel::Create(const KernelInfo& info) {
  std::optional<std::vector<int64_t>> axes;
  if (info.since_version() < 13 && info.has_attribute("axes")) {
    ONNXGATE_ASSIGN_OR_RETURN(axes, info.GetInts("axes"));
  }
  return std::unique_ptr<OpKernel>(new SqueezeKernel(info.since_version(), std::move(axes)));
}

Status SqueezeKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* data, GetInput(ctx, 0, "data"));
  std::optional<std::vector<int64_t>> axes = axes_attr_;
  if (version_ >= 13 && ctx.has_input(1)) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, 1, "axes"));
    ONNXGATE_ASSIGN_OR_RETURN(axes, ToInt64List(*t, "axes"));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Shape out, SqueezeShape(data->shape(), axes, version_ >= 11));
  ctx.set_output(0, data->Reshaped(std::move(out)));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> UnsqueezeKernel::Create(const KernelInfo& info) {
  std::vector<int64_t> axes;
  if (info.since_version() < 13) {
    ONNXGATE_ASSIGN_OR_RETURN(axes, info.GetInts("axes"));
  }
  return std::unique_ptr<OpKernel>(new UnsqueezeKernel(info.since_version(), std::move(axes)));
}

Status UnsqueezeKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* data, GetInput(ctx, 0, "data"));
  std::vector<int64_t> axes = axes_attr_;
  if (version_ >= 13) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, 1, "axes"));
    ONNXGATE_ASSIGN_OR_RETURN(axes, ToInt64List(*t, "axes", /*allow_scalar=*/true));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Shape out, UnsqueezeShape(data->shape(), axes, version_ >= 11));
  ctx.set_output(0, data->Reshaped(std::move(out)));
  return OkStatus();
}

}  // namespace onnxgate::ref
