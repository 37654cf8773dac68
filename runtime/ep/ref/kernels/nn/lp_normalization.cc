// LpNormalization in double: the norm of every line along the axis, then a division.
#include "runtime/ep/ref/kernels/nn/lp_normalization.h"

#include <cmath>

#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

StatusOr<std::unique_ptr<OpKernel>> LpNormalization::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", -1));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t p, info.GetInt("p", 2));
  if (p != 1 && p != 2) {
    return InvalidArgument("'p' must be 1 or 2, got " + std::to_string(p));
  }
  return std::unique_ptr<OpKernel>(new LpNormalization(axis, p));
}

Status LpNormalization::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  const Shape& xs = x->shape();
  const int64_t rank = static_cast<int64_t>(xs.rank());
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisOf(axis_, rank, true));
  // Lines along `axis`: `outer` blocks of `len` * `inner` elements, elements of one line `inner`
  // apart.
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= xs[i];
  for (int64_t i = axis + 1; i < rank; ++i) inner *= xs[i];
  const int64_t len = xs[axis];
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> v, ToDoubles(*x));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t in = 0; in < inner; ++in) {
      double* line = v.data() + o * len * inner + in;
      double norm = 0.0;
      for (int64_t j = 0; j < len; ++j) {
        const double e = line[j * inner];
        norm += p_ == 1 ? std::fabs(e) : e * e;
      }
      if (p_ == 2) norm = std::sqrt(norm);
      for (int64_t j = 0; j < len; ++j)
        line[j * inner] = norm == 0.0 ? 0.0 : line[j * inner] / norm;
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, FromDoubles(x->dtype(), xs, v));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
