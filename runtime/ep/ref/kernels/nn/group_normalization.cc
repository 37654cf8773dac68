// GroupNormalization in double. Version 21 rounds the normalized values to stash_type and then to
// X's type before the scale and bias stage, where the spec places those casts.
#include "runtime/ep/ref/kernels/nn/group_normalization.h"

#include <cmath>

#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

// `values` rounded to `dtype` and widened back (the cast of a stage boundary).
Status RoundThrough(DataType dtype, const Shape& shape, std::vector<double>& values) {
  if (dtype == DataType::kDouble) return OkStatus();
  ONNXGATE_ASSIGN_OR_RETURN(Tensor t, FromDoubles(dtype, shape, values));
  ONNXGATE_ASSIGN_OR_RETURN(values, ToDoubles(t));
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> GroupNormalization::Create(const KernelInfo& info) {
  const int version = info.since_version();
  if (!info.has_attribute("num_groups")) {
    return InvalidArgument("the attribute 'num_groups' is required");
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t num_groups, info.GetInt("num_groups"));
  if (num_groups < 1) {
    return InvalidArgument("'num_groups' must be >= 1, got " + std::to_string(num_groups));
  }
  ONNXGATE_ASSIGN_OR_RETURN(float epsilon, info.GetFloat("epsilon", 1e-5f));
  DataType stash_type = DataType::kDouble;
  if (version < 21) {
    if (info.has_attribute("stash_type")) {
      return InvalidArgument("attribute 'stash_type' is only defined from GroupNormalization-21");
    }
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t stash, info.GetInt("stash_type", 1));
    if (stash != 1 && stash != 10 && stash != 11 && stash != 16) {
      return InvalidArgument(
          "'stash_type' must name a floating-point type (1 float, 10 "
          "float16, 11 double, 16 bfloat16), got " +
          std::to_string(stash));
    }
    stash_type = static_cast<DataType>(stash);
  }
  return std::unique_ptr<OpKernel>(
      new GroupNormalization(num_groups, epsilon, version >= 21, stash_type));
}

Status GroupNormalization::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* scale, GetInput(ctx, 1, "scale"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* bias, GetInput(ctx, 2, "bias"));
  const Shape& xs = x->shape();
  if (xs.rank() < 2) {
    return InvalidArgument("X must have rank >= 2 (N, C, ...), got " + xs.ToString());
  }
  if (scale->dtype() != x->dtype() || bias->dtype() != x->dtype()) {
    return InvalidArgument("X, scale and bias must share one element type");
  }
  const int64_t n = xs[0];
  const int64_t c = xs[1];
  if (c % num_groups_ != 0) {
    return InvalidArgument("num_groups " + std::to_string(num_groups_) +
                           " does not divide the channel count " + std::to_string(c) + " of X " +
                           xs.ToString());
  }
  const Shape param_shape{per_channel_ ? c : num_groups_};
  if (scale->shape() != param_shape || bias->shape() != param_shape) {
    return InvalidArgument(std::string("scale and bias must have shape ") + param_shape.ToString() +
                           " (one value per " + (per_channel_ ? "channel" : "group") + "), got " +
                           scale->shape().ToString() + " and " + bias->shape().ToString());
  }
  int64_t spatial = 1;
  for (size_t i = 2; i < xs.rank(); ++i) spatial *= xs[i];
  const int64_t channels_per_group = c / num_groups_;
  const int64_t group_size = channels_per_group * spatial;

  // Stage one: X cast to stash_type, normalized per image and group, cast back to X's type.
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> v, ToDoubles(*x));
  ONNXGATE_RETURN_IF_ERROR(RoundThrough(stash_type_, xs, v));
  for (int64_t g = 0; g < n * num_groups_; ++g) {
    double* block = v.data() + g * group_size;
    double sum = 0.0;
    for (int64_t i = 0; i < group_size; ++i) sum += block[i];
    const double mean = group_size == 0 ? 0.0 : sum / static_cast<double>(group_size);
    double sq = 0.0;
    for (int64_t i = 0; i < group_size; ++i) sq += (block[i] - mean) * (block[i] - mean);
    const double var = group_size == 0 ? 0.0 : sq / static_cast<double>(group_size);
    const double inv_std = 1.0 / std::sqrt(var + epsilon_);
    for (int64_t i = 0; i < group_size; ++i) block[i] = (block[i] - mean) * inv_std;
  }
  ONNXGATE_RETURN_IF_ERROR(RoundThrough(stash_type_, xs, v));
  if (per_channel_) ONNXGATE_RETURN_IF_ERROR(RoundThrough(x->dtype(), xs, v));

  // Stage two: scale and bias per channel (21) or per group (18).
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> sd, ToDoubles(*scale));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> bd, ToDoubles(*bias));
  for (int64_t img = 0; img < n; ++img) {
    for (int64_t ch = 0; ch < c; ++ch) {
      const int64_t k = per_channel_ ? ch : ch / channels_per_group;
      double* plane = v.data() + (img * c + ch) * spatial;
      for (int64_t i = 0; i < spatial; ++i) plane[i] = plane[i] * sd[k] + bd[k];
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, FromDoubles(x->dtype(), xs, v));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
