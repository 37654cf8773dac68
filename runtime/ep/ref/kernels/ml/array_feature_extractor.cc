// ArrayFeatureExtractor.
#include "runtime/ep/ref/kernels/ml/array_feature_extractor.h"

#include <string>
#include <vector>

namespace onnxgate::ref {

Status ArrayFeatureExtractorKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* y, GetInput(ctx, 1, "Y"));
  if (x->shape().rank() == 0) return InvalidArgument("X must have at least one dimension");
  if (y->dtype() != DataType::kInt64) {
    return InvalidArgument(std::string("Y must be int64, got ") + DataTypeShortName(y->dtype()));
  }
  const int64_t last = x->shape()[x->shape().rank() - 1];
  const int64_t k = y->NumElements();
  const int64_t* indices = y->data<int64_t>();
  for (int64_t j = 0; j < k; ++j) {
    if (indices[j] < 0 || indices[j] >= last) {
      return InvalidArgument("index " + std::to_string(indices[j]) + " of Y is outside [0, " +
                             std::to_string(last) + "), the last dimension of X " +
                             x->shape().ToString());
    }
  }
  std::vector<int64_t> dims = x->shape().dims();
  if (dims.size() == 1) dims.insert(dims.begin(), 1);
  dims.back() = k;
  const int64_t rows = last == 0 ? 0 : x->NumElements() / last;
  ONNXGATE_ASSIGN_OR_RETURN(Tensor z, NewTensor(x->dtype(), Shape(dims)));
  Status st = VisitAllTypes(x->dtype(), [&](auto tag) -> Status {
    using T = decltype(tag);
    const T* in = x->data<T>();
    T* out = z.mutable_data<T>();
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t j = 0; j < k; ++j) out[r * k + j] = in[r * last + indices[j]];
    }
    return OkStatus();
  });
  ONNXGATE_RETURN_IF_ERROR(st);
  ctx.set_output(0, std::move(z));
  return OkStatus();
}

}  // namespace onnxgate::ref
