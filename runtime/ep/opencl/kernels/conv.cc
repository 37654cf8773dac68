// Conv: attributes, shapes and the window geometry are checked and resolved on the host with
// ref's helpers; the sums run on the device, on X, W and B there or copied in, into a Y left
// there.
#include "runtime/ep/opencl/kernels/conv.h"

#include <optional>
#include <string>
#include <vector>

#include "runtime/provider/common/nn_util.h"

namespace onnxgate::opencl_ep {

StatusOr<std::unique_ptr<OpKernel>> ConvKernel::Create(const KernelInfo& info, Context cl) {
  ConvPoolAttributeSet set;
  set.has_dilations = true;
  ONNXGATE_ASSIGN_OR_RETURN(ConvPoolAttributes attrs, ParseConvPoolAttributes(info, set));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t group, info.GetInt("group", 1));
  if (group < 1) {
    return InvalidArgument("attribute 'group' must be >= 1, got " + std::to_string(group));
  }
  return std::unique_ptr<OpKernel>(new ConvKernel(std::move(cl), std::move(attrs), group));
}

Status ConvKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(ClInput x, GetClInput(ctx, *cl_, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(ClInput w, GetClInput(ctx, *cl_, 1, "W"));
  std::optional<ClInput> b;
  if (ctx.has_input(2)) {
    ONNXGATE_ASSIGN_OR_RETURN(b, GetClInput(ctx, *cl_, 2, "B"));
  }
  const Shape& xs = x.shape;
  const Shape& ws = w.shape;
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, ConvKernelDims(attrs_, group_, xs, ws));
  const int64_t n = xs[0], c = xs[1], m = ws[0];
  if (b.has_value() && (b->shape.rank() != 1 || b->shape[0] != m)) {
    return InvalidArgument("B must have shape [" + std::to_string(m) + "], got " +
                           b->shape.ToString());
  }
  std::vector<int64_t> input(xs.dims().begin() + 2, xs.dims().end());
  auto resolved = ResolveWindowGeometry(attrs_, input, kernel);
  if (!resolved.ok()) return resolved.status().WithContext("with X " + xs.ToString());
  const WindowGeometry& g = *resolved;
  std::vector<int64_t> y_dims = {n, m};
  y_dims.insert(y_dims.end(), g.output.begin(), g.output.end());
  Shape y_shape(std::move(y_dims));
  ONNXGATE_RETURN_IF_ERROR(y_shape.Validate());

  // The six per-dim arrays conv.cl reads, in its order.
  std::vector<int64_t> geo;
  for (const std::vector<int64_t>* v :
       {&g.input, &g.kernel, &g.output, &g.strides, &g.dilations, &g.pad_begin}) {
    geo.insert(geo.end(), v->begin(), v->end());
  }
  ONNXGATE_ASSIGN_OR_RETURN(ClOutput y, ClOutput::Create(cl_, y_shape));
  const int64_t in_plane = Shape(g.input).NumElements();
  const int64_t k_size = Shape(g.kernel).NumElements();
  const int64_t out_plane = Shape(g.output).NumElements();
  ONNXGATE_RETURN_IF_ERROR(
      cl_->Run("conv_f32", {static_cast<size_t>(y.NumElements())},
               {x.arg, w.arg, b.has_value() ? b->arg : KernelArg::Input(nullptr, 0), y.arg(),
                KernelArg::Longs(std::move(geo)), KernelArg::Int(static_cast<int32_t>(g.rank())),
                KernelArg::Long(c), KernelArg::Long(m), KernelArg::Long(c / group_),
                KernelArg::Long(m / group_), KernelArg::Long(in_plane), KernelArg::Long(k_size),
                KernelArg::Long(out_plane), KernelArg::Int(b.has_value() ? 1 : 0)}));
  ctx.set_output(0, y.Take());
  return OkStatus();
}

}  // namespace onnxgate::opencl_ep
