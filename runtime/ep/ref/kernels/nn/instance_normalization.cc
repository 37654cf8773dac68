// InstanceNormalization in double, one channel plane at a time.
#include "runtime/ep/ref/kernels/nn/instance_normalization.h"

#include <cmath>

#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

// Normalizes `planes` consecutive planes of `size` elements; plane p uses channel p % channels.
std::vector<double> InstanceNormDouble(const std::vector<double>& x, int64_t planes,
                                       int64_t channels, int64_t size,
                                       const std::vector<double>& scale,
                                       const std::vector<double>& bias, double epsilon) {
  std::vector<double> y(x.size());
  for (int64_t p = 0; p < planes; ++p) {
    const double* src = x.data() + p * size;
    double sum = 0.0;
    for (int64_t i = 0; i < size; ++i) sum += src[i];
    const double mean = sum / static_cast<double>(size);
    double sq = 0.0;
    for (int64_t i = 0; i < size; ++i) sq += (src[i] - mean) * (src[i] - mean);
    const double inv_std = 1.0 / std::sqrt(sq / static_cast<double>(size) + epsilon);
    const int64_t c = p % channels;
    for (int64_t i = 0; i < size; ++i) {
      y[p * size + i] = (src[i] - mean) * inv_std * scale[c] + bias[c];
    }
  }
  return y;
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> InstanceNormalization::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(float epsilon, info.GetFloat("epsilon", 1e-5f));
  return std::unique_ptr<OpKernel>(new InstanceNormalization(epsilon));
}

Status InstanceNormalization::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* scale, GetInput(ctx, 1, "scale"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* bias, GetInput(ctx, 2, "B"));
  const Shape& xs = x->shape();
  if (xs.rank() < 3) {
    return InvalidArgument(
        "InstanceNormalization: input must have rank >= 3 (N, C, spatial...), got " +
        xs.ToString());
  }
  const Shape channel_shape{xs[1]};
  if (scale->shape() != channel_shape || bias->shape() != channel_shape) {
    return InvalidArgument("InstanceNormalization: scale and B must have shape " +
                           channel_shape.ToString() + ", got " + scale->shape().ToString() +
                           " and " + bias->shape().ToString());
  }
  int64_t size = 1;
  for (size_t i = 2; i < xs.rank(); ++i) size *= xs[i];
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> xd, ToDoubles(*x));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> sd, ToDoubles(*scale));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> bd, ToDoubles(*bias));
  std::vector<double> y = InstanceNormDouble(xd, xs[0] * xs[1], xs[1], size, sd, bd, epsilon_);
  ONNXGATE_ASSIGN_OR_RETURN(Tensor yt, FromDoubles(x->dtype(), xs, y));
  ctx.set_output(0, std::move(yt));
  return OkStatus();
}

}  // namespace onnxgate::ref
