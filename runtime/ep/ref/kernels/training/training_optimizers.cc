// Adagrad, Adam and Momentum: the update rules of the ai.onnx.preview.training schemas, applied
// elementwise to each optimized tensor with its gradient and states.
#include "runtime/ep/ref/kernels/training/training_optimizers.h"

#include <cmath>
#include <optional>
#include <vector>

#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

// R (a scalar learning rate) and T (a scalar int64 update count), the first two inputs of every
// optimizer.
struct Step {
  double r = 0;
  int64_t t = 0;
};

StatusOr<Step> ReadStep(const KernelContext& ctx) {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* r, GetInput(ctx, 0, "R"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, 1, "T"));
  if (r->NumElements() != 1) {
    return InvalidArgument("R must be a scalar, got shape " + r->shape().ToString());
  }
  if (t->NumElements() != 1) {
    return InvalidArgument("T must be a scalar, got shape " + t->shape().ToString());
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> rv, ToDoubles(*r));
  return Step{rv[0], t->data<int64_t>()[0]};
}

// The number n of optimized tensors: the node has R, T and `groups` input lists of n tensors
// each (X, G, then the states), and `output_groups` output lists of n tensors each.
StatusOr<size_t> TensorCount(const KernelContext& ctx, size_t groups, size_t output_groups) {
  const size_t variadic = ctx.num_inputs() < 2 ? 0 : ctx.num_inputs() - 2;
  if (variadic == 0 || variadic % groups != 0) {
    return InvalidArgument("expected R, T and " + std::to_string(groups) +
                           " equally long input lists, got " + std::to_string(ctx.num_inputs()) +
                           " inputs");
  }
  const size_t n = variadic / groups;
  if (ctx.num_outputs() != output_groups * n) {
    return InvalidArgument("expected " + std::to_string(output_groups * n) + " outputs for " +
                           std::to_string(n) + " optimized tensors, got " +
                           std::to_string(ctx.num_outputs()));
  }
  return n;
}

// Inputs 2 + g * n + i for g in [0, groups), widened to double; all of X's shape.
StatusOr<std::vector<std::vector<double>>> ReadGroup(const KernelContext& ctx, size_t n, size_t i,
                                                     size_t groups, const char* const* names) {
  std::vector<std::vector<double>> out;
  const Tensor* x = nullptr;
  for (size_t g = 0; g < groups; ++g) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, 2 + g * n + i, names[g]));
    if (x == nullptr) {
      x = t;
    } else if (t->shape() != x->shape()) {
      return InvalidArgument(std::string(names[g]) + " of tensor " + std::to_string(i) +
                             " has shape " + t->shape().ToString() + ", X has " +
                             x->shape().ToString());
    }
    ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> v, ToDoubles(*t));
    out.push_back(std::move(v));
  }
  return out;
}

Status SetOutputs(KernelContext& ctx, size_t n, size_t i, const Tensor& like,
                  const std::vector<std::vector<double>>& values) {
  for (size_t g = 0; g < values.size(); ++g) {
    ONNXGATE_ASSIGN_OR_RETURN(Tensor t, FromDoubles(like.dtype(), like.shape(), values[g]));
    ctx.set_output(g * n + i, std::move(t));
  }
  return OkStatus();
}

StatusOr<double> NonNegative(const KernelInfo& info, const char* name,
                             std::optional<float> fallback) {
  ONNXGATE_ASSIGN_OR_RETURN(float v, info.GetFloat(name, fallback));
  if (!(v >= 0)) {
    return InvalidArgument(std::string("'") + name + "' must be >= 0, got " + std::to_string(v));
  }
  return static_cast<double>(v);
}

}  // namespace

StatusOr<std::unique_ptr<OpKernel>> AdagradKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(double decay, NonNegative(info, "decay_factor", 0.0f));
  ONNXGATE_ASSIGN_OR_RETURN(double epsilon, NonNegative(info, "epsilon", 1e-6f));
  ONNXGATE_ASSIGN_OR_RETURN(double norm, NonNegative(info, "norm_coefficient", 0.0f));
  return std::unique_ptr<OpKernel>(new AdagradKernel(decay, epsilon, norm));
}

Status AdagradKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(Step step, ReadStep(ctx));
  ONNXGATE_ASSIGN_OR_RETURN(size_t n, TensorCount(ctx, 3, 2));
  const double r = step.r / (1 + static_cast<double>(step.t) * decay_factor_);
  static const char* const kNames[] = {"X", "G", "H"};
  for (size_t i = 0; i < n; ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(auto in, ReadGroup(ctx, n, i, 3, kNames));
    const std::vector<double>&x = in[0], &g = in[1], &h = in[2];
    std::vector<double> x_new(x.size()), h_new(x.size());
    for (size_t k = 0; k < x.size(); ++k) {
      const double g_reg = norm_coefficient_ * x[k] + g[k];
      h_new[k] = h[k] + g_reg * g_reg;
      x_new[k] = x[k] - r * g_reg / (std::sqrt(h_new[k]) + epsilon_);
    }
    ONNXGATE_RETURN_IF_ERROR(SetOutputs(ctx, n, i, *ctx.input_tensor(2 + i), {x_new, h_new}));
  }
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> AdamKernel::Create(const KernelInfo& info) {
  Config c;
  ONNXGATE_ASSIGN_OR_RETURN(c.alpha, NonNegative(info, "alpha", 0.9f));
  ONNXGATE_ASSIGN_OR_RETURN(c.beta, NonNegative(info, "beta", 0.999f));
  ONNXGATE_ASSIGN_OR_RETURN(c.epsilon, NonNegative(info, "epsilon", 1e-6f));
  ONNXGATE_ASSIGN_OR_RETURN(c.norm_coefficient, NonNegative(info, "norm_coefficient", 0.0f));
  ONNXGATE_ASSIGN_OR_RETURN(c.norm_coefficient_post,
                            NonNegative(info, "norm_coefficient_post", 0.0f));
  return std::unique_ptr<OpKernel>(new AdamKernel(c));
}

Status AdamKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(Step step, ReadStep(ctx));
  ONNXGATE_ASSIGN_OR_RETURN(size_t n, TensorCount(ctx, 4, 3));
  // The bias correction applies from the first update on (T > 0).
  double r = step.r;
  if (step.t > 0) {
    const double t = static_cast<double>(step.t);
    r = step.r * std::sqrt(1 - std::pow(c_.beta, t)) / (1 - std::pow(c_.alpha, t));
  }
  static const char* const kNames[] = {"X", "G", "V", "H"};
  for (size_t i = 0; i < n; ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(auto in, ReadGroup(ctx, n, i, 4, kNames));
    const std::vector<double>&x = in[0], &g = in[1], &v = in[2], &h = in[3];
    std::vector<double> x_new(x.size()), v_new(x.size()), h_new(x.size());
    for (size_t k = 0; k < x.size(); ++k) {
      const double g_reg = c_.norm_coefficient * x[k] + g[k];
      v_new[k] = c_.alpha * v[k] + (1 - c_.alpha) * g_reg;
      h_new[k] = c_.beta * h[k] + (1 - c_.beta) * g_reg * g_reg;
      const double x_step = x[k] - r * v_new[k] / (std::sqrt(h_new[k]) + c_.epsilon);
      x_new[k] = (1 - c_.norm_coefficient_post) * x_step;
    }
    ONNXGATE_RETURN_IF_ERROR(
        SetOutputs(ctx, n, i, *ctx.input_tensor(2 + i), {x_new, v_new, h_new}));
  }
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> MomentumKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(float alpha, info.GetFloat("alpha"));
  ONNXGATE_ASSIGN_OR_RETURN(float beta, info.GetFloat("beta"));
  ONNXGATE_ASSIGN_OR_RETURN(float norm, info.GetFloat("norm_coefficient"));
  ONNXGATE_ASSIGN_OR_RETURN(std::string mode, info.GetString("mode"));
  if (mode != "standard" && mode != "nesterov") {
    return InvalidArgument("'mode' must be \"standard\" or \"nesterov\", got \"" + mode + "\"");
  }
  return std::unique_ptr<OpKernel>(new MomentumKernel(alpha, beta, norm, mode == "nesterov"));
}

Status MomentumKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(Step step, ReadStep(ctx));
  ONNXGATE_ASSIGN_OR_RETURN(size_t n, TensorCount(ctx, 3, 2));
  // The first update (T == 0) takes the gradient whole.
  const double beta = step.t > 0 ? beta_ : 1.0;
  static const char* const kNames[] = {"X", "G", "V"};
  for (size_t i = 0; i < n; ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(auto in, ReadGroup(ctx, n, i, 3, kNames));
    const std::vector<double>&x = in[0], &g = in[1], &v = in[2];
    std::vector<double> x_new(x.size()), v_new(x.size());
    for (size_t k = 0; k < x.size(); ++k) {
      const double g_reg = norm_coefficient_ * x[k] + g[k];
      v_new[k] = alpha_ * v[k] + beta * g_reg;
      x_new[k] = nesterov_ ? x[k] - step.r * (g_reg + alpha_ * v_new[k]) : x[k] - step.r * v_new[k];
    }
    ONNXGATE_RETURN_IF_ERROR(SetOutputs(ctx, n, i, *ctx.input_tensor(2 + i), {x_new, v_new}));
  }
  return OkStatus();
}

}  // namespace onnxgate::ref
