// LayerNormalization-17 on oneDNN's layer_normalization primitive (see layer_normalization.h).
#include "runtime/ep/dnnl/kernels/layer_normalization.h"

#include <cmath>
#include <limits>
#include <optional>

#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::dnnl_ep {

namespace {

// `t` (Scale or B) as one value per element of the normalized block X.shape[axis:], when its
// broadcast to X gives every leading index the same values; nullopt when it varies over the
// leading axes. InvalidArgument when it does not broadcast to X.
StatusOr<std::optional<std::vector<float>>> PerBlockValues(const Tensor& t, const Shape& xs,
                                                           size_t axis, const char* name) {
  const Shape& ts = t.shape();
  if (ts.rank() > xs.rank()) {
    return InvalidArgument(std::string(name) + " " + ts.ToString() + " has a higher rank than X " +
                           xs.ToString());
  }
  const size_t lead = xs.rank() - ts.rank();
  std::vector<int64_t> t_block;
  for (size_t d = 0; d < ts.rank(); ++d) {
    if (lead + d >= axis) {
      t_block.push_back(ts[d]);
    } else if (ts[d] != 1) {
      return std::optional<std::vector<float>>();
    }
  }
  const std::vector<int64_t> block(xs.dims().begin() + static_cast<std::ptrdiff_t>(axis),
                                   xs.dims().end());
  auto index = UnidirectionalBroadcastIndex(Shape(t_block), Shape(block));
  if (!index.ok()) return index.status().WithContext(name);
  std::vector<float> values(index->size());
  const float* data = t.data<float>();
  for (size_t i = 0; i < values.size(); ++i) values[i] = data[(*index)[i]];
  return std::optional<std::vector<float>>(std::move(values));
}

// y = y * t (multiply) or y + t, with `t` broadcast over all of X.
Status ApplyBroadcast(const Tensor& t, const Shape& xs, bool multiply, float* y, const char* name) {
  auto index = UnidirectionalBroadcastIndex(t.shape(), xs);
  if (!index.ok()) return index.status().WithContext(name);
  const float* data = t.data<float>();
  for (size_t i = 0; i < index->size(); ++i) {
    y[i] = multiply ? y[i] * data[(*index)[i]] : y[i] + data[(*index)[i]];
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> LayerNormalizationKernel::Create(
    const KernelInfo& info, std::shared_ptr<const DnnlContext> dnnl) {
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, info.GetInt("axis", -1));
  ONNXGATE_ASSIGN_OR_RETURN(float epsilon, info.GetFloat("epsilon", 1e-5f));
  ONNXGATE_ASSIGN_OR_RETURN(int64_t stash_type, info.GetInt("stash_type", 1));
  if (stash_type != static_cast<int64_t>(DataType::kFloat)) {
    return Unimplemented("stash_type " + std::to_string(stash_type) +
                         ": dnnl computes the statistics in float32 alone");
  }
  const bool statistics = info.has_output(1) || info.has_output(2);
  return std::unique_ptr<OpKernel>(
      new LayerNormalizationKernel(std::move(dnnl), axis, epsilon, statistics));
}

Status LayerNormalizationKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* scale, GetInput(ctx, 1, "Scale"));
  const Tensor* bias = ctx.input_tensor(2);
  const Shape& xs = x->shape();
  if (xs.rank() == 0) return InvalidArgument("X must have rank 1 or more, got a scalar");
  ONNXGATE_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxisOf(axis_, static_cast<int64_t>(xs.rank()),
                                                          /*allow_negative=*/true));
  int64_t outer = 1, block = 1;
  for (size_t i = 0; i < xs.rank(); ++i) (static_cast<int64_t>(i) < axis ? outer : block) *= xs[i];
  std::vector<int64_t> stat_dims = xs.dims();
  for (size_t i = static_cast<size_t>(axis); i < stat_dims.size(); ++i) stat_dims[i] = 1;

  ONNXGATE_ASSIGN_OR_RETURN(auto scale_block,
                            PerBlockValues(*scale, xs, static_cast<size_t>(axis), "Scale"));
  std::optional<std::vector<float>> bias_block;
  if (bias != nullptr) {
    ONNXGATE_ASSIGN_OR_RETURN(bias_block,
                              PerBlockValues(*bias, xs, static_cast<size_t>(axis), "B"));
  }
  // Scale and B go to the primitive together or not at all: a B applied afterwards must follow
  // the Scale.
  const bool fused = scale_block.has_value() && (bias == nullptr || bias_block.has_value());

  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kFloat, xs));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor mean, NewTensor(DataType::kFloat, Shape(stat_dims)));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor inv_std, NewTensor(DataType::kFloat, Shape(stat_dims)));
  if (outer > 0 && block == 0) {  // empty blocks: statistics of nothing
    for (int64_t i = 0; i < outer; ++i) {
      mean.mutable_data<float>()[i] = std::numeric_limits<float>::quiet_NaN();
      inv_std.mutable_data<float>()[i] = std::numeric_limits<float>::quiet_NaN();
    }
  }
  if (outer > 0 && block > 0) {
    const bool shift = fused && bias != nullptr;
    auto make = [&]() -> StatusOr<std::shared_ptr<const LayerNormalizationEntry>> {
      auto entry = std::make_shared<LayerNormalizationEntry>();
      entry->data = PlainDesc({outer, block});
      entry->stats = PlainDesc({outer});
      entry->block = PlainDesc({block});
      ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "layer_normalization_forward", [&]() -> Status {
        auto flags = dnnl::normalization_flags::none;
        if (fused) flags = flags | dnnl::normalization_flags::use_scale;
        if (shift) flags = flags | dnnl::normalization_flags::use_shift;
        const auto prop =
            statistics_ ? dnnl::prop_kind::forward_training : dnnl::prop_kind::forward_inference;
        dnnl::layer_normalization_forward::desc desc(prop, entry->data, epsilon_, flags);
        dnnl::layer_normalization_forward::primitive_desc pd(desc, DefaultAttr(), dnnl_->engine());
        entry->pd = pd;
        entry->primitive = dnnl::layer_normalization_forward(pd);
        return OkStatus();
      }));
      return std::shared_ptr<const LayerNormalizationEntry>(std::move(entry));
    };
    ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const LayerNormalizationEntry> entry,
                              cache_.Get({outer, block, fused ? 1 : 0, shift ? 1 : 0}, make));
    std::vector<float> variance(statistics_ ? static_cast<size_t>(outer) : 0);
    ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "layer_normalization_forward", [&]() -> Status {
      std::unordered_map<int, dnnl::memory> args = {
          {DNNL_ARG_SRC, WrapMemory(*dnnl_, entry->data, x->data<float>())},
          {DNNL_ARG_DST, WrapMemory(*dnnl_, entry->data, y.mutable_data<float>())}};
      if (fused)
        args.emplace(DNNL_ARG_SCALE, WrapMemory(*dnnl_, entry->block, scale_block->data()));
      if (shift) args.emplace(DNNL_ARG_SHIFT, WrapMemory(*dnnl_, entry->block, bias_block->data()));
      if (statistics_) {
        args.emplace(DNNL_ARG_MEAN, WrapMemory(*dnnl_, entry->stats, mean.mutable_data<float>()));
        args.emplace(DNNL_ARG_VARIANCE, WrapMemory(*dnnl_, entry->stats, variance.data()));
      }
      ExecuteWithScratchpad(*dnnl_, entry->primitive, entry->pd, std::move(args));
      return OkStatus();
    }));
    if (!fused) {
      float* out = y.mutable_data<float>();
      ONNXGATE_RETURN_IF_ERROR(ApplyBroadcast(*scale, xs, /*multiply=*/true, out, "Scale"));
      if (bias != nullptr) {
        ONNXGATE_RETURN_IF_ERROR(ApplyBroadcast(*bias, xs, /*multiply=*/false, out, "B"));
      }
    }
    for (size_t i = 0; i < variance.size(); ++i) {
      inv_std.mutable_data<float>()[i] = 1.0f / std::sqrt(variance[i] + epsilon_);
    }
  }
  ctx.set_output(0, std::move(y));
  if (ctx.num_outputs() > 1) ctx.set_output(1, std::move(mean));
  if (ctx.num_outputs() > 2) ctx.set_output(2, std::move(inv_std));
  return OkStatus();
}

}  // namespace onnxgate::dnnl_ep
