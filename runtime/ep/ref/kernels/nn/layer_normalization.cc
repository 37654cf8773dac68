// LayerNormalization in double: statistics per leading index over the trailing block.
#include "runtime/ep/ref/kernels/nn/layer_normalization.h"

#include <cmath>

#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

StatusOr<std::unique_ptr<OpKernel>> LayerNormalization::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", -1));
  ONNXGATE_ASSIGN_OR_RETURN(float epsilon, info.GetFloat("epsilon", 1e-5f));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t stash, info.GetInt("stash_type", 1));
  const DataType stash_type = static_cast<DataType>(stash);
  // The schema allows float and bfloat16 for Mean and InvStdDev.
  if (stash_type != DataType::kFloat && stash_type != DataType::kBFloat16) {
    return InvalidArgument("'stash_type' must be 1 (float) or 16 (bfloat16), got " +
                           std::to_string(stash));
  }
  return std::unique_ptr<OpKernel>(new LayerNormalization(axis, epsilon, stash_type));
}

Status LayerNormalization::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* scale, GetInput(ctx, 1, "Scale"));
  const Tensor* bias = ctx.input_tensor(2);
  const Shape& xs = x->shape();
  auto axis = NormalizeAxis(axis_, static_cast<int64_t>(xs.rank()));
  if (!axis.ok() || xs.rank() == 0) {
    return InvalidArgument("LayerNormalization: axis " + std::to_string(axis_) +
                           " is out of range for X " + xs.ToString());
  }
  int64_t outer = 1, block = 1;
  for (size_t i = 0; i < xs.rank(); ++i) {
    if (static_cast<int64_t>(i) < *axis) {
      outer *= xs[i];
    } else {
      block *= xs[i];
    }
  }

  auto scale_index = UnidirectionalBroadcastIndex(scale->shape(), xs);
  if (!scale_index.ok()) return scale_index.status().WithContext("LayerNormalization: Scale");
  std::vector<int64_t> bias_index;
  std::vector<double> bd;
  if (bias != nullptr) {
    auto index = UnidirectionalBroadcastIndex(bias->shape(), xs);
    if (!index.ok()) return index.status().WithContext("LayerNormalization: B");
    bias_index = std::move(index).value();
    ONNXGATE_ASSIGN_OR_RETURN(bd, ToDoubles(*bias));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> xd, ToDoubles(*x));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> sd, ToDoubles(*scale));

  std::vector<double> y(xd.size()), mean(static_cast<size_t>(outer)), inv_std(mean.size());
  for (int64_t o = 0; o < outer; ++o) {
    const double* src = xd.data() + o * block;
    double sum = 0.0;
    for (int64_t i = 0; i < block; ++i) sum += src[i];
    const double m = sum / static_cast<double>(block);
    double sq = 0.0;
    for (int64_t i = 0; i < block; ++i) sq += (src[i] - m) * (src[i] - m);
    const double r = 1.0 / std::sqrt(sq / static_cast<double>(block) + epsilon_);
    mean[o] = m;
    inv_std[o] = r;
    for (int64_t i = 0; i < block; ++i) {
      const int64_t at = o * block + i;
      y[at] = (src[i] - m) * r * sd[(*scale_index)[at]] + (bd.empty() ? 0.0 : bd[bias_index[at]]);
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor yt, FromDoubles(x->dtype(), xs, y));
  ctx.set_output(0, std::move(yt));
  // Mean and InvStdDev keep X's rank with the normalized axes reduced to 1.
  std::vector<int64_t> stat_dims = xs.dims();
  for (size_t i = static_cast<size_t>(*axis); i < stat_dims.size(); ++i) stat_dims[i] = 1;
  const Shape stat_shape(stat_dims);
  if (ctx.num_outputs() > 1) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor mt, FromDoubles(stash_type_, stat_shape, mean));
    ctx.set_output(1, std::move(mt));
  }
  if (ctx.num_outputs() > 2) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor it, FromDoubles(stash_type_, stat_shape, inv_std));
    ctx.set_output(2, std::move(it));
  }
  return OkStatus();
}

}  // namespace onnxgate::ref
