// BatchNormalization in double: normalisation with given or batch statistics.
#include "runtime/ep/ref/kernels/nn/batch_normalization.h"

#include <cmath>

#include "runtime/provider/common/kernel_util.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

// X seen as [n, c, s]: n images, c channels, s elements per channel plane. Statistics are
// indexed per channel (spatial) or per channel and plane position (per-activation).
struct BatchLayout {
  int64_t n, c, s;
  bool spatial;
  int64_t ParamIndex(int64_t ch, int64_t pos) const { return spatial ? ch : ch * s + pos; }
  int64_t ParamCount() const { return spatial ? c : c * s; }
};

// Y = (X - mean) / sqrt(var + epsilon) * scale + bias.
std::vector<double> Normalize(const BatchLayout& l, const std::vector<double>& x,
                              const std::vector<double>& scale, const std::vector<double>& bias,
                              const std::vector<double>& mean, const std::vector<double>& var,
                              double epsilon) {
  std::vector<double> y(x.size());
  for (int64_t img = 0; img < l.n; ++img) {
    for (int64_t ch = 0; ch < l.c; ++ch) {
      const int64_t base = (img * l.c + ch) * l.s;
      for (int64_t pos = 0; pos < l.s; ++pos) {
        const int64_t p = l.ParamIndex(ch, pos);
        y[base + pos] =
            (x[base + pos] - mean[p]) / std::sqrt(var[p] + epsilon) * scale[p] + bias[p];
      }
    }
  }
  return y;
}

// Per-channel mean and population (biased) variance over the batch and the spatial axes.
void BatchStatistics(const BatchLayout& l, const std::vector<double>& x, std::vector<double>* mean,
                     std::vector<double>* var) {
  mean->assign(static_cast<size_t>(l.c), 0.0);
  var->assign(static_cast<size_t>(l.c), 0.0);
  const double count = static_cast<double>(l.n * l.s);
  for (int64_t ch = 0; ch < l.c; ++ch) {
    double sum = 0.0;
    for (int64_t img = 0; img < l.n; ++img) {
      for (int64_t pos = 0; pos < l.s; ++pos) sum += x[(img * l.c + ch) * l.s + pos];
    }
    const double m = sum / count;
    double sq = 0.0;
    for (int64_t img = 0; img < l.n; ++img) {
      for (int64_t pos = 0; pos < l.s; ++pos) {
        const double d = x[(img * l.c + ch) * l.s + pos] - m;
        sq += d * d;
      }
    }
    (*mean)[ch] = m;
    (*var)[ch] = sq / count;
  }
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> BatchNormalization::Create(const KernelInfo& info) {
  // Version 1 differs from 6 only by the legacy consumed_inputs attribute, which is ignored.
  const int v = info.since_version();
  ONNXGATE_ASSIGN_OR_RETURN(float epsilon, info.GetFloat("epsilon", 1e-5f));
  ONNXGATE_ASSIGN_OR_RETURN(float momentum, info.GetFloat("momentum", 0.9f));
  bool spatial = true;
  if (v <= 7) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t s, info.GetInt("spatial", 1));
    spatial = s != 0;
  }
  bool training = false;
  if (v >= 14) {
    ONNXGATE_ASSIGN_OR_RETURN(int64_t t, info.GetInt("training_mode", 0));
    training = t != 0;
    if (!training && info.num_outputs() > 1) {
      return InvalidArgument(
          "outputs running_mean and running_var are only defined when "
          "training_mode = 1");
    }
  } else if (info.num_outputs() > 1) {
    // Before version 14 extra outputs select a training mode whose saved statistics the spec
    // leaves loosely defined; only the inference form is implemented.
    return Unimplemented("the training form (" + std::to_string(info.num_outputs()) +
                         " outputs) is only implemented from BatchNormalization-14");
  }
  return std::unique_ptr<OpKernel>(new BatchNormalization(epsilon, momentum, spatial, training));
}

Status BatchNormalization::Compute(KernelContext& ctx) const {
  static const char* kNames[] = {"X", "scale", "B", "input_mean", "input_var"};
  const Tensor* in[5];
  for (size_t i = 0; i < 5; ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(in[i], GetInput(ctx, i, kNames[i]));
  }
  const Shape& xs = in[0]->shape();
  if (xs.rank() < 2) {
    return InvalidArgument("BatchNormalization: X must have rank >= 2 (N, C, ...), got " +
                           xs.ToString());
  }
  BatchLayout l{xs[0], xs[1], 1, spatial_};
  for (size_t i = 2; i < xs.rank(); ++i) l.s *= xs[i];
  for (size_t i = 1; i < 5; ++i) {
    const Shape& ps = in[i]->shape();
    const bool ok =
        spatial_ ? (ps.rank() == 1 && ps[0] == l.c) : ps.NumElements() == l.ParamCount();
    if (!ok) {
      return InvalidArgument(std::string("BatchNormalization: input '") + kNames[i] +
                             "' has shape " + ps.ToString() + ", expected " +
                             (spatial_ ? "[" + std::to_string(l.c) + "]"
                                       : std::to_string(l.ParamCount()) + " elements") +
                             " for X " + xs.ToString());
    }
  }
  std::vector<double> d[5];
  for (size_t i = 0; i < 5; ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(d[i], ToDoubles(*in[i]));
  }

  if (!training_) {
    std::vector<double> y = Normalize(l, d[0], d[1], d[2], d[3], d[4], epsilon_);
    ONNXGATE_ASSIGN_OR_RETURN(Tensor yt, FromDoubles(in[0]->dtype(), xs, y));
    ctx.set_output(0, std::move(yt));
    return OkStatus();
  }
  std::vector<double> mean, var;
  BatchStatistics(l, d[0], &mean, &var);
  std::vector<double> y = Normalize(l, d[0], d[1], d[2], mean, var, epsilon_);
  ONNXGATE_ASSIGN_OR_RETURN(Tensor yt, FromDoubles(in[0]->dtype(), xs, y));
  ctx.set_output(0, std::move(yt));
  // running = input * momentum + batch statistic * (1 - momentum), in the type of input_mean.
  for (size_t out = 1; out < 3 && out < ctx.num_outputs(); ++out) {
    const std::vector<double>& current = out == 1 ? mean : var;
    const std::vector<double>& given = out == 1 ? d[3] : d[4];
    std::vector<double> running(current.size());
    for (size_t i = 0; i < current.size(); ++i) {
      running[i] = given[i] * momentum_ + current[i] * (1.0 - momentum_);
    }
    ONNXGATE_ASSIGN_OR_RETURN(Tensor rt,
                              FromDoubles(in[2 + out]->dtype(), in[2 + out]->shape(), running));
    ctx.set_output(out, std::move(rt));
  }
  return OkStatus();
}

}  // namespace onnxgate::ref
