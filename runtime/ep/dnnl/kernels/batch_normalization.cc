// BatchNormalization in inference on oneDNN's batch_normalization primitive (see
// batch_normalization.h).
#include "runtime/ep/dnnl/kernels/batch_normalization.h"

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::dnnl_ep {

StatusOr<std::unique_ptr<OpKernel>> BatchNormalizationKernel::Create(
    const KernelInfo& info, std::shared_ptr<const DnnlContext> dnnl) {
  ONNXGATE_ASSIGN_OR_RETURN(float epsilon, info.GetFloat("epsilon", 1e-5f));
  if (info.since_version() >= 14) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t training, info.GetInt("training_mode", 0));
    if (training != 0) {
      return Unimplemented("training_mode = 1: dnnl runs BatchNormalization in inference only");
    }
  }
  for (size_t i = 1; i < info.num_outputs(); ++i) {
    if (info.has_output(i)) {
      return Unimplemented("output " + std::to_string(i) +
                           " (running or saved statistics) is a training output; dnnl runs "
                           "BatchNormalization in inference only");
    }
  }
  return std::unique_ptr<OpKernel>(new BatchNormalizationKernel(std::move(dnnl), epsilon));
}

Status BatchNormalizationKernel::Compute(KernelContext& ctx) const {
  static const char* const kNames[] = {"X", "scale", "B", "input_mean", "input_var"};
  const Tensor* in[5];
  for (size_t i = 0; i < 5; ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(in[i], GetInput(ctx, i, kNames[i]));
  }
  const Shape& xs = in[0]->shape();
  if (xs.rank() < 2) {
    return InvalidArgument("X must have rank 2 or more ([N, C, ...]), got " + xs.ToString());
  }
  const int64_t n = xs[0], c = xs[1];
  int64_t s = 1;
  for (size_t i = 2; i < xs.rank(); ++i) s *= xs[i];
  for (size_t i = 1; i < 5; ++i) {
    if (in[i]->shape() != Shape({c})) {
      return InvalidArgument(std::string(kNames[i]) + " must have shape [" + std::to_string(c) +
                             "] (one value per channel of X " + xs.ToString() + "), got " +
                             in[i]->shape().ToString());
    }
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kFloat, xs));
  if (y.NumElements() > 0) {
    auto make = [&]() -> StatusOr<std::shared_ptr<const BatchNormalizationEntry>> {
      auto entry = std::make_shared<BatchNormalizationEntry>();
      entry->data = PlainDesc({n, c, s});
      entry->channels = PlainDesc({c});
      ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "batch_normalization_forward", [&]() -> Status {
        const auto flags = dnnl::normalization_flags::use_global_stats |
                           dnnl::normalization_flags::use_scale |
                           dnnl::normalization_flags::use_shift;
        dnnl::batch_normalization_forward::desc desc(dnnl::prop_kind::forward_inference,
                                                     entry->data, epsilon_, flags);
        dnnl::batch_normalization_forward::primitive_desc pd(desc, DefaultAttr(), dnnl_->engine());
        entry->pd = pd;
        entry->primitive = dnnl::batch_normalization_forward(pd);
        return OkStatus();
      }));
      return std::shared_ptr<const BatchNormalizationEntry>(std::move(entry));
    };
    ONNXGATE_ASSIGN_OR_RETURN(std::shared_ptr<const BatchNormalizationEntry> entry,
                              cache_.Get({n, c, s}, make));
    ONNXGATE_RETURN_IF_ERROR(DnnlCall(*dnnl_, "batch_normalization_forward", [&]() -> Status {
      const auto channel = [&](size_t i) {
        return WrapMemory(*dnnl_, entry->channels, in[i]->data<float>());
      };
      ExecuteWithScratchpad(
          *dnnl_, entry->primitive, entry->pd,
          {{DNNL_ARG_SRC, WrapMemory(*dnnl_, entry->data, in[0]->data<float>())},
           {DNNL_ARG_DST, WrapMemory(*dnnl_, entry->data, y.mutable_data<float>())},
           {DNNL_ARG_SCALE, channel(1)},
           {DNNL_ARG_SHIFT, channel(2)},
           {DNNL_ARG_MEAN, channel(3)},
           {DNNL_ARG_VARIANCE, channel(4)}});
      return OkStatus();
    }));
  }
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::dnnl_ep
