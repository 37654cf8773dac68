// ReduceSum and ReduceMean: the axes are read and checked on the host (with the ref EP's axis
// helpers, so both providers refuse the same axes in the same words), the sums run on the
// device, one work item per output element, on data there or copied in, into a result left
// there.
#include "runtime/ep/opencl/kernels/reduce.h"

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::opencl_ep {

StatusOr<std::unique_ptr<OpKernel>> ReduceKernel::Create(const KernelInfo& info, ReduceOp op,
                                                         Context cl) {
  Options o;
  o.mean = op == ReduceOp::kMean;
  ONNXGATE_ASSIGN_OR_RETURN(int64_t keepdims, info.GetInt("keepdims", 1));
  o.keepdims = keepdims != 0;
  o.allow_negative_axes = info.since_version() >= 11;
  o.axes_input = info.since_version() >= (op == ReduceOp::kSum ? 13 : 18);
  if (o.axes_input) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t noop, info.GetInt("noop_with_empty_axes", 0));
    o.noop_with_empty_axes = noop != 0;
  } else if (info.has_attribute("axes")) {
    ONNXGATE_ASSIGN_OR_RETURN(o.axes, info.GetInts("axes"));
  }
  return std::unique_ptr<OpKernel>(new ReduceKernel(std::move(cl), std::move(o)));
}

Status ReduceKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(ClInput x, GetClInput(ctx, *cl_, 0, "data"));
  std::vector<int64_t> axes;
  if (options_.axes_input) {
    if (ctx.has_input(1)) {
      // int64, so never resident: read on the host.
      ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, 1, "axes"));
      ONNXGATE_ASSIGN_OR_RETURN(axes, ToInt64List(*t, "axes"));
    }
    if (axes.empty() && options_.noop_with_empty_axes) {
      // The input as it is, on the host or on the device: nothing to compute.
      ctx.set_output(0, *ctx.input(0));
      return OkStatus();
    }
  } else if (options_.axes.has_value()) {
    axes = *options_.axes;
  }
  const int64_t rank = static_cast<int64_t>(x.shape.rank());
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> normalized,
                            NormalizeAxesOf(axes, rank, options_.allow_negative_axes));
  if (rank == 0) normalized.clear();  // a scalar reduces to itself whatever axis 0 says

  const std::vector<int64_t>& dims = x.shape.dims();
  const std::vector<int64_t> strides = x.shape.Strides();
  std::vector<bool> reduced(dims.size(), normalized.empty());
  for (int64_t a : normalized) reduced[static_cast<size_t>(a)] = true;
  std::vector<int64_t> kept_dims, kept_strides, red_dims, red_strides, out_dims;
  int64_t red_count = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (reduced[d]) {
      red_dims.push_back(dims[d]);
      red_strides.push_back(strides[d]);
      red_count *= dims[d];
      if (options_.keepdims) out_dims.push_back(1);
    } else {
      kept_dims.push_back(dims[d]);
      kept_strides.push_back(strides[d]);
      out_dims.push_back(dims[d]);
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(ClOutput y, ClOutput::Create(cl_, Shape(out_dims)));
  std::vector<int64_t> meta = kept_dims;
  meta.insert(meta.end(), kept_strides.begin(), kept_strides.end());
  meta.insert(meta.end(), red_dims.begin(), red_dims.end());
  meta.insert(meta.end(), red_strides.begin(), red_strides.end());
  ONNXGATE_RETURN_IF_ERROR(
      cl_->Run("reduce_sum_f32", {static_cast<size_t>(y.NumElements())},
               {x.arg, y.arg(), KernelArg::Longs(std::move(meta)),
                KernelArg::Int(static_cast<int32_t>(kept_dims.size())),
                KernelArg::Int(static_cast<int32_t>(red_dims.size())), KernelArg::Long(red_count),
                KernelArg::Int(options_.mean ? 1 : 0)}));
  ctx.set_output(0, y.Take());
  return OkStatus();
}

}  // namespace onnxgate::opencl_ep
