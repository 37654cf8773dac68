// LRN in double: a sliding sum of squares along the channel axis.
#include "runtime/ep/ref/kernels/nn/lrn.h"

#include <algorithm>
#include <cmath>

#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

StatusOr<std::unique_ptr<OpKernel>> Lrn::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(float alpha, info.GetFloat("alpha", 1e-4f));
  ONNXGATE_ASSIGN_OR_RETURN(float beta, info.GetFloat("beta", 0.75f));
  ONNXGATE_ASSIGN_OR_RETURN(float bias, info.GetFloat("bias", 1.0f));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t size, info.GetInt("size"));
  if (size < 1) {
    return InvalidArgument("'size' must be >= 1, got " + std::to_string(size));
  }
  return std::unique_ptr<OpKernel>(new Lrn(alpha, beta, bias, size));
}

Status Lrn::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  const Shape& xs = x->shape();
  if (xs.rank() < 2) {
    return InvalidArgument("LRN: X must have rank >= 2 (N, C, ...), got " + xs.ToString());
  }
  const int64_t n = xs[0], c = xs[1];
  int64_t plane = 1;
  for (size_t i = 2; i < xs.rank(); ++i) plane *= xs[i];
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> xd, ToDoubles(*x));
  std::vector<double> y(xd.size());
  // Channel ch sums channels [ch - floor((size - 1) / 2), ch + ceil((size - 1) / 2)], clipped.
  const int64_t before = (size_ - 1) / 2;
  const int64_t after = size_ - 1 - before;
  for (int64_t img = 0; img < n; ++img) {
    for (int64_t ch = 0; ch < c; ++ch) {
      const int64_t lo = std::max<int64_t>(0, ch - before);
      const int64_t hi = std::min<int64_t>(c - 1, ch + after);
      for (int64_t pos = 0; pos < plane; ++pos) {
        double square_sum = 0.0;
        for (int64_t k = lo; k <= hi; ++k) {
          const double v = xd[(img * c + k) * plane + pos];
          square_sum += v * v;
        }
        const int64_t at = (img * c + ch) * plane + pos;
        y[at] = xd[at] / std::pow(bias_ + alpha_ / static_cast<double>(size_) * square_sum, beta_);
      }
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor yt, FromDoubles(x->dtype(), xs, y));
  ctx.set_output(0, std::move(yt));
  return OkStatus();
}

}  // namespace onnxgate::ref
