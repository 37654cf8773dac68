// Reshape, Squeeze and Unsqueeze.
#include "runtime/ep/ref/kernels/tensor/reshape.h"

namespace onnxgate::ref {

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
