// Transpose.
#include "runtime/ep/ref/kernels/tensor/transpose.h"

#include "runtime/provider/common/strided_copy.h"

namespace onnxgate::ref {

StatusOr<Tensor> Transpose(const Tensor& x, const std::optional<std::vector<int64_t>>& perm) {
  const size_t rank = x.shape().rank();
  std::vector<int64_t> p(rank);
  if (perm) {
    if (perm->size() != rank) {
      return InvalidArgument("perm " + ListToString(*perm) + " has " +
                             std::to_string(perm->size()) + " entries for an input of rank " +
                             std::to_string(rank));
    }
    std::vector<bool> seen(rank, false);
    for (size_t i = 0; i < rank; ++i) {
      int64_t a = (*perm)[i];
      if (a < 0 || a >= static_cast<int64_t>(rank) || seen[a]) {
        return InvalidArgument("perm " + ListToString(*perm) + " is not a permutation of [0, " +
                               std::to_string(rank) + ")");
      }
      seen[a] = true;
      p[i] = a;
    }
  } else {
    for (size_t i = 0; i < rank; ++i) p[i] = static_cast<int64_t>(rank - 1 - i);
  }
  const std::vector<int64_t> in_strides = x.shape().Strides();
  std::vector<int64_t> out_dims(rank), strides(rank);
  for (size_t i = 0; i < rank; ++i) {
    out_dims[i] = x.shape()[p[i]];
    strides[i] = in_strides[p[i]];
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(x.dtype(), Shape(out_dims)));
  CopyStrided(x, out_dims, strides, 0, &y);
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> TransposeKernel::Create(const KernelInfo& info) {
  std::optional<std::vector<int64_t>> perm;
  if (info.has_attribute("perm")) {
    ONNXGATE_ASSIGN_OR_RETURN(perm, info.GetInts("perm"));
  }
  return std::unique_ptr<OpKernel>(new TransposeKernel(std::move(perm)));
}

Status TransposeKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "data"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, Transpose(*x, perm_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
