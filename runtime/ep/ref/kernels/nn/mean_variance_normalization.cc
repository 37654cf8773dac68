// MeanVarianceNormalization in double: for every position of the kept dims, two passes over the
// reduced dims (mean, then the mean of squared deviations).
#include "runtime/ep/ref/kernels/nn/mean_variance_normalization.h"

#include <cmath>

#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

StatusOr<std::unique_ptr<OpKernel>> MeanVarianceNormalization::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> axes,
                            info.GetInts("axes", std::vector<int64_t>{0, 2, 3}));
  return std::unique_ptr<OpKernel>(new MeanVarianceNormalization(std::move(axes)));
}

Status MeanVarianceNormalization::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  const Shape& s = x->shape();
  const int64_t rank = static_cast<int64_t>(s.rank());
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> axes,
                            NormalizeAxesOf(axes_, rank, /*allow_negative=*/true));
  std::vector<bool> reduced(static_cast<size_t>(rank), false);
  for (int64_t a : axes) reduced[a] = true;
  // Each element's group: its flat index over the kept dims only.
  const int64_t n = x->NumElements();
  std::vector<int64_t> group(static_cast<size_t>(n));
  int64_t groups = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[d]) groups *= s[d];
  }
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i, g = 0, g_stride = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      const int64_t coord = rest % s[d];
      rest /= s[d];
      if (!reduced[d]) {
        g += coord * g_stride;
        g_stride *= s[d];
      }
    }
    group[i] = g;
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> xd, ToDoubles(*x));
  std::vector<double> sum(static_cast<size_t>(groups), 0.0), count(sum.size(), 0.0);
  for (int64_t i = 0; i < n; ++i) {
    sum[group[i]] += xd[i];
    count[group[i]] += 1;
  }
  std::vector<double> mean(sum.size()), var(sum.size(), 0.0);
  for (size_t g = 0; g < sum.size(); ++g) mean[g] = count[g] > 0 ? sum[g] / count[g] : 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = xd[i] - mean[group[i]];
    var[group[i]] += d * d;
  }
  for (size_t g = 0; g < var.size(); ++g) var[g] = count[g] > 0 ? var[g] / count[g] : 0.0;
  constexpr double kEpsilon = 1e-9;
  for (int64_t i = 0; i < n; ++i) {
    xd[i] = (xd[i] - mean[group[i]]) / (std::sqrt(var[group[i]]) + kEpsilon);
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, FromDoubles(x->dtype(), s, xd));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
