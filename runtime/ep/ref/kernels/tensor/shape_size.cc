// Shape and Size.
#include "runtime/ep/ref/kernels/tensor/shape_size.h"

#include <algorithm>
#include <vector>

namespace onnxgate::ref {

Tensor ShapeSlice(const Shape& shape, int64_t start, std::optional<int64_t> end) {
  const int64_t rank = static_cast<int64_t>(shape.rank());
  auto clamp = [rank](int64_t i) {
    if (i < 0) i += rank;
    return std::clamp<int64_t>(i, 0, rank);
  };
  const int64_t b = clamp(start);
  const int64_t e = end ? clamp(*end) : rank;
  std::vector<int64_t> dims;
  for (int64_t d = b; d < e; ++d) dims.push_back(shape[d]);
  return Tensor::FromVector<int64_t>(Shape({static_cast<int64_t>(dims.size())}), dims);
}

StatusOr<std::unique_ptr<OpKernel>> ShapeKernel::Create(const KernelInfo& info) {
  int64_t start = 0;
  std::optional<int64_t> end;
  if (info.since_version() >= 15) {
    ONNXGATE_ASSIGN_OR_RETURN(start, info.GetInt("start", 0));
    if (info.has_attribute("end")) {
      ONNXGATE_ASSIGN_OR_RETURN(end, info.GetInt("end"));
    }
  }
  return std::unique_ptr<OpKernel>(new ShapeKernel(start, end));
}

Status ShapeKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "data"));
  ctx.set_output(0, ShapeSlice(x->shape(), start_, end_));
  return OkStatus();
}

Status SizeKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "data"));
  ctx.set_output(0, Tensor::Scalar<int64_t>(x->NumElements()));
  return OkStatus();
}

}  // namespace onnxgate::ref
