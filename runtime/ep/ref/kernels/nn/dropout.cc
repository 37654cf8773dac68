// Dropout on double buffers. Training-mode draws follow ONNX's reference implementation, which
// keeps an element when numpy's legacy RandomState(seed).uniform(0, 1) draw for it is >= ratio:
// a 32-bit MT19937 seeded with the `seed` attribute (its low 32 bits; numpy accepts only seeds
// in [0, 2^32)), each draw built from two outputs as numpy builds a 53-bit double. Without a
// seed the engine is seeded from std::random_device (no runtime reproduces unseeded draws, so
// only seeded runs, ratio 0 and inference are comparable across runtimes).
#include "runtime/ep/ref/kernels/nn/dropout.h"

#include <random>
#include <vector>

#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

StatusOr<std::unique_ptr<OpKernel>> Dropout::Create(const KernelInfo& info) {
  const int version = info.since_version();
  ONNXGATE_ASSIGN_OR_RETURN(float ratio, info.GetFloat("ratio", 0.5f));
  std::optional<int64_t> seed;
  if (version >= 12 && info.has_attribute("seed")) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t s, info.GetInt("seed"));
    seed = s;
  }
  if (version < 12 && !(ratio >= 0 && ratio <= 1)) {
    return InvalidArgument("'ratio' must be in [0, 1], got " + std::to_string(ratio));
  }
  return std::unique_ptr<OpKernel>(new Dropout(version, ratio, seed));
}

Status Dropout::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "data"));
  bool training = false;
  double ratio = ratio_;
  if (version_ >= 12) {
    if (const Tensor* r = ctx.input_tensor(1)) {
      if (r->NumElements() != 1) {
        return InvalidArgument("Dropout: ratio must be a scalar, got shape " +
                               r->shape().ToString());
      }
      ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> rv, ToDoubles(*r));
      ratio = rv[0];
    }
    if (const Tensor* t = ctx.input_tensor(2)) {
      if (t->NumElements() != 1 || t->dtype() != DataType::kBool) {
        return InvalidArgument("Dropout: training_mode must be a bool scalar, got " +
                               std::string(DataTypeName(t->dtype())) + t->shape().ToString());
      }
      training = t->data<bool>()[0];
    }
    if (training && !(ratio >= 0 && ratio < 1)) {
      return InvalidArgument("Dropout: ratio must be in [0, 1) in training mode, got " +
                             std::to_string(ratio));
    }
  }
  const int64_t n = x->NumElements();
  std::vector<bool> keep(static_cast<size_t>(n), true);
  if (training && ratio > 0) {
    std::mt19937 engine(seed_.has_value() ? static_cast<uint32_t>(*seed_) : std::random_device{}());
    for (int64_t i = 0; i < n; ++i) {
      const uint32_t a = engine() >> 5;  // the upper 27 and 26 bits of two outputs
      const uint32_t b = engine() >> 6;
      const double draw = (a * 67108864.0 + b) / 9007199254740992.0;  // in [0, 1)
      keep[i] = draw >= ratio;
    }
  }
  if (!training || ratio == 0) {
    ctx.set_output(0, *x);
  } else {
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> xd, ToDoubles(*x));
    const double scale = 1.0 / (1.0 - ratio);
    for (int64_t i = 0; i < n; ++i) xd[i] = keep[i] ? xd[i] * scale : 0.0;
    ONNXGATE_ASSIGN_OR_RETURN(Tensor y, FromDoubles(x->dtype(), x->shape(), xd));
    ctx.set_output(0, std::move(y));
  }
  if (ctx.num_outputs() > 1) {
    // The mask is bool from version 10 on, of the data's type before.
    if (version_ >= 10) {
      Tensor mask(DataType::kBool, x->shape());
      bool* m = mask.mutable_data<bool>();
      for (int64_t i = 0; i < n; ++i) m[i] = keep[i];
      ctx.set_output(1, std::move(mask));
    } else {
      std::vector<double> md(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) md[i] = keep[i] ? 1.0 : 0.0;
      ONNXGATE_ASSIGN_OR_RETURN(Tensor mask, FromDoubles(x->dtype(), x->shape(), md));
      ctx.set_output(1, std::move(mask));
    }
  }
  return OkStatus();
}

}  // namespace onnxgate::ref
