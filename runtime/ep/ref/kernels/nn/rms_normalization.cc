// RMSNormalization: the statistics in double, the normalized values rounded to stash_type and
// then to X's type as the function body's casts do, the product with Scale rounded to Scale's.
#include "runtime/ep/ref/kernels/nn/rms_normalization.h"

#include <cmath>
#include <string>
#include <vector>

#include "runtime/ep/ref/kernels/nn/precision.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

bool IsFloatType(DataType t) {
  return t == DataType::kFloat16 || t == DataType::kBFloat16 || t == DataType::kFloat ||
         t == DataType::kDouble;
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> RmsNormalizationKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", -1));
  ONNXGATE_ASSIGN_OR_RETURN(float epsilon, info.GetFloat("epsilon", 1e-5f));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t stash, info.GetInt("stash_type", 1));
  if (!(epsilon >= 0.0f)) {
    return InvalidArgument("'epsilon' must be non-negative, got " + std::to_string(epsilon));
  }
  const DataType stash_type = static_cast<DataType>(stash);
  if (stash < 0 || stash > 26 || !IsFloatType(stash_type)) {
    return InvalidArgument(
        "'stash_type' must be a floating-point type (1 float, 10 float16, "
        "11 double, 16 bfloat16), got " +
        std::to_string(stash));
  }
  return std::unique_ptr<OpKernel>(new RmsNormalizationKernel(axis, epsilon, stash_type));
}

Status RmsNormalizationKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* scale, GetInput(ctx, 1, "scale"));
  const Shape& xs = x->shape();
  if (!IsFloatType(x->dtype()) || !IsFloatType(scale->dtype())) {
    return InvalidArgument(std::string("X and scale must be floating-point, got ") +
                           DataTypeShortName(x->dtype()) + " and " +
                           DataTypeShortName(scale->dtype()));
  }
  if (xs.rank() == 0) return InvalidArgument("X must have rank >= 1, got a scalar");
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis,
                            NormalizeAxisOf(axis_, static_cast<int64_t>(xs.rank()), true));
  int64_t outer = 1, block = 1;
  for (size_t i = 0; i < xs.rank(); ++i) {
    (static_cast<int64_t>(i) < axis ? outer : block) *= xs[i];
  }
  auto scale_index = UnidirectionalBroadcastIndex(scale->shape(), xs);
  if (!scale_index.ok()) return scale_index.status().WithContext("scale");
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> xd, ToDoubles(*x));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> sd, ToDoubles(*scale));
  std::vector<double> y(xd.size());
  for (int64_t o = 0; o < outer; ++o) {
    const double* src = xd.data() + o * block;
    double squares = 0.0;
    for (int64_t i = 0; i < block; ++i) squares += src[i] * src[i];
    const double rms = std::sqrt(squares / static_cast<double>(block) + epsilon_);
    for (int64_t i = 0; i < block; ++i) {
      const int64_t at = o * block + i;
      const double normalized =
          ref::RoundToPrecision(x->dtype(), ref::RoundToPrecision(stash_type_, src[i] / rms));
      y[at] = normalized * sd[(*scale_index)[at]];
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor yt, FromDoubles(scale->dtype(), xs, y));
  ctx.set_output(0, std::move(yt));
  return OkStatus();
}

}  // namespace onnxgate::ref
