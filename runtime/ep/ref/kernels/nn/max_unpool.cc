// MaxUnpool.
#include "runtime/ep/ref/kernels/nn/max_unpool.h"

#include "runtime/provider/common/indexing_util.h"

namespace onnxgate::ref {

StatusOr<std::vector<int64_t>> MaxUnpoolOutputDims(const std::vector<int64_t>& input_spatial,
                                                   const std::vector<int64_t>& kernel,
                                                   const std::vector<int64_t>& strides,
                                                   const std::vector<int64_t>& pads) {
  const size_t rank = kernel.size();
  if (input_spatial.size() != rank || strides.size() != rank || pads.size() != 2 * rank) {
    return InvalidArgument("kernel_shape " + ListToString(kernel) + ", strides " +
                           ListToString(strides) + " and pads " + ListToString(pads) +
                           " do not fit the " + std::to_string(input_spatial.size()) +
                           " spatial axes of X");
  }
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    out[i] = (input_spatial[i] - 1) * strides[i] + kernel[i] - pads[i] - pads[i + rank];
    if (out[i] < 0) {
      return InvalidArgument("the pads " + ListToString(pads) + " leave spatial axis " +
                             std::to_string(i) + " with a negative size");
    }
  }
  return out;
}

StatusOr<std::unique_ptr<OpKernel>> MaxUnpoolKernel::Create(const KernelInfo& info) {
  if (!info.has_attribute("kernel_shape")) {
    return InvalidArgument("the 'kernel_shape' attribute is required");
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, info.GetInts("kernel_shape"));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> strides,
                            info.GetInts("strides", std::vector<int64_t>{}));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> pads,
                            info.GetInts("pads", std::vector<int64_t>{}));
  for (int64_t v : kernel) {
    if (v < 1) return InvalidArgument("kernel_shape must be positive");
  }
  for (int64_t v : strides) {
    if (v < 1) return InvalidArgument("strides must be positive");
  }
  for (int64_t v : pads) {
    if (v < 0) return InvalidArgument("pads must be non-negative");
  }
  return std::unique_ptr<OpKernel>(
      new MaxUnpoolKernel(std::move(kernel), std::move(strides), std::move(pads)));
}

Status MaxUnpoolKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* indices, GetInput(ctx, 1, "I"));
  const Shape& xs = x->shape();
  if (xs.rank() < 3) return InvalidArgument("X must have rank >= 3, got " + xs.ToString());
  if (indices->dtype() != DataType::kInt64 || indices->shape() != xs) {
    return InvalidArgument("I must be int64 with the shape of X " + xs.ToString() + ", got " +
                           DataTypeShortName(indices->dtype()) + indices->shape().ToString());
  }
  const size_t spatial = xs.rank() - 2;
  std::vector<int64_t> strides = strides_.empty() ? std::vector<int64_t>(spatial, 1) : strides_;
  std::vector<int64_t> pads = pads_.empty() ? std::vector<int64_t>(2 * spatial, 0) : pads_;
  const Tensor* shape_input = ctx.input_tensor(2);
  if (shape_input != nullptr) {
    // With output_shape the pads are ignored (the spec has them generated instead).
    pads.assign(2 * spatial, 0);
  }
  std::vector<int64_t> in_spatial(xs.dims().begin() + 2, xs.dims().end());
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> out_spatial,
                            MaxUnpoolOutputDims(in_spatial, kernel_, strides, pads));
  std::vector<int64_t> inferred = {xs[0], xs[1]};
  inferred.insert(inferred.end(), out_spatial.begin(), out_spatial.end());
  std::vector<int64_t> out_dims = inferred;
  if (shape_input != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> given,
                              ToInt64List(*shape_input, "output_shape"));
    if (given.size() != xs.rank() || given[0] != xs[0] || given[1] != xs[1]) {
      return InvalidArgument("output_shape " + ListToString(given) +
                             " must have X's rank, batch and channels, X is " + xs.ToString());
    }
    out_dims = given;
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x->dtype(), Shape(out_dims)));
  // The indices are flat over the inferred shape (MaxPool's input without the remainder its
  // windows skipped). An explicit output_shape adds that remainder at the end of each axis, so
  // every index keeps its coordinates and is re-flattened over the output shape.
  const Shape inferred_shape(inferred);
  const int64_t inferred_total = inferred_shape.NumElements();
  const std::vector<int64_t> inferred_strides = inferred_shape.Strides();
  const std::vector<int64_t> out_strides = y.shape().Strides();
  const int64_t* idx = indices->data<int64_t>();
  std::vector<int64_t> targets(static_cast<size_t>(indices->NumElements()));
  for (size_t i = 0; i < targets.size(); ++i) {
    if (idx[i] < 0 || idx[i] >= inferred_total) {
      return InvalidArgument("I[" + std::to_string(i) + "] = " + std::to_string(idx[i]) +
                             " is outside the unpooled shape " + inferred_shape.ToString());
    }
    int64_t rest = idx[i], target = 0;
    for (size_t d = 0; d < inferred.size(); ++d) {
      const int64_t coord = rest / inferred_strides[d];
      rest %= inferred_strides[d];
      if (coord >= out_dims[d]) {
        return InvalidArgument("I[" + std::to_string(i) + "] = " + std::to_string(idx[i]) +
                               " falls outside output_shape " + ListToString(out_dims));
      }
      target += coord * out_strides[d];
    }
    targets[i] = target;
  }
  Status st = VisitFloatTypes(x->dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = x->data<T>();
    T* out = y.mutable_data<T>();
    for (size_t i = 0; i < targets.size(); ++i) out[targets[i]] = in[i];
    return OkStatus();
  });
  ONNXGATE_RETURN_IF_ERROR(st);
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
