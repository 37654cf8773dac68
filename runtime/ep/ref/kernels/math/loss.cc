// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss.
#include "runtime/ep/ref/kernels/math/loss.h"

#include <vector>

#include "runtime/ep/ref/kernels/math/softmax.h"
#include "runtime/provider/common/nn_util.h"

namespace onnxgate::ref {

namespace {

struct LossAttributes {
  LossReduction reduction = LossReduction::kMean;
  std::optional<int64_t> ignore_index;
};

StatusOr<LossAttributes> ReadLossAttributes(const KernelInfo& info) {
  LossAttributes a;
  ONNXGATE_ASSIGN_OR_RETURN(std::string reduction, info.GetString("reduction", "mean"));
  auto parsed = ParseLossReduction(reduction);
  if (!parsed.ok()) return parsed.status();
  a.reduction = *parsed;
  if (info.has_attribute("ignore_index")) {
    ONNXGATE_ASSIGN_OR_RETURN(a.ignore_index, info.GetInt("ignore_index"));
  }
  return a;
}

// The optional weight input (index 2), or nullptr.
StatusOr<const Tensor*> OptionalWeight(const KernelContext& ctx, const char* name) {
  if (!ctx.has_input(2)) return static_cast<const Tensor*>(nullptr);
  return GetInput(ctx, 2, name);
}

}  // namespace

StatusOr<LossReduction> ParseLossReduction(const std::string& name) {
  if (name == "none") return LossReduction::kNone;
  if (name == "sum") return LossReduction::kSum;
  if (name == "mean") return LossReduction::kMean;
  return InvalidArgument("attribute 'reduction' = \"" + name +
                         "\" is not one of \"none\", \"sum\", \"mean\"");
}

StatusOr<Tensor> NegativeLogLikelihood(const Tensor& input, const Tensor& target,
                                       const Tensor* weight, LossReduction reduction,
                                       std::optional<int64_t> ignore_index) {
  const std::vector<int64_t>& dims = input.shape().dims();
  if (dims.size() < 2) {
    return InvalidArgument("input must have shape [N, C, d1, ...], got " +
                           input.shape().ToString());
  }
  // The target's shape is the input's without the class dim.
  std::vector<int64_t> expected_target = dims;
  expected_target.erase(expected_target.begin() + 1);
  if (target.shape().dims() != expected_target) {
    return InvalidArgument("target shape " + target.shape().ToString() + " does not match input " +
                           input.shape().ToString() + ": expected " +
                           Shape(expected_target).ToString());
  }
  if (target.dtype() != DataType::kInt32 && target.dtype() != DataType::kInt64) {
    return InvalidArgument(std::string("target must be int32 or int64, got ") +
                           DataTypeShortName(target.dtype()));
  }
  const int64_t n = dims[0];
  const int64_t c = dims[1];
  int64_t d = 1;  // the flattened d1 * ... * dk
  for (size_t k = 2; k < dims.size(); ++k) d *= dims[k];
  std::vector<double> w;
  if (weight != nullptr) {
    if (weight->shape() != Shape{c}) {
      return InvalidArgument("weight must have shape [C] = [" + std::to_string(c) + "], got " +
                             weight->shape().ToString());
    }
    ONNXGATE_ASSIGN_OR_RETURN(w, ToDoubles(*weight));
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<double> x, ToDoubles(input));
  ONNXGATE_ASSIGN_OR_RETURN(std::vector<int64_t> t, ToInt64s(target, "target"));
  std::vector<double> loss(t.size(), 0.0);
  double loss_sum = 0;
  double weight_sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < d; ++j) {
      const size_t at = static_cast<size_t>(i * d + j);
      const int64_t cls = t[at];
      if (ignore_index.has_value() && cls == *ignore_index) continue;
      if (cls < 0 || cls >= c) {
        return InvalidArgument("target value " + std::to_string(cls) + " at flat index " +
                               std::to_string(at) + " is outside [0, " + std::to_string(c) +
                               ") and is not ignore_index");
      }
      const double wt = w.empty() ? 1.0 : w[static_cast<size_t>(cls)];
      loss[at] = -wt * x[static_cast<size_t>((i * c + cls) * d + j)];
      loss_sum += loss[at];
      weight_sum += wt;
    }
  }
  switch (reduction) {
    case LossReduction::kNone: return FromDoubles(input.dtype(), target.shape(), loss);
    case LossReduction::kSum: return FromDoubles(input.dtype(), Shape{}, {loss_sum});
    case LossReduction::kMean: break;
  }
  return FromDoubles(input.dtype(), Shape{}, {loss_sum / weight_sum});
}

StatusOr<std::unique_ptr<OpKernel>> NegativeLogLikelihoodLossKernel::Create(
    const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(LossAttributes a, ReadLossAttributes(info));
  return std::unique_ptr<OpKernel>(
      new NegativeLogLikelihoodLossKernel(a.reduction, a.ignore_index));
}

Status NegativeLogLikelihoodLossKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* input, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* target, GetInput(ctx, 1, "target"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* weight, OptionalWeight(ctx, "weight"));
  ONNXGATE_ASSIGN_OR_RETURN(
      Tensor loss, NegativeLogLikelihood(*input, *target, weight, reduction_, ignore_index_));
  ctx.set_output(0, std::move(loss));
  return OkStatus();
}

StatusOr<std::unique_ptr<OpKernel>> SoftmaxCrossEntropyLossKernel::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(LossAttributes a, ReadLossAttributes(info));
  return std::unique_ptr<OpKernel>(new SoftmaxCrossEntropyLossKernel(a.reduction, a.ignore_index));
}

Status SoftmaxCrossEntropyLossKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* scores, GetInput(ctx, 0, "scores"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* labels, GetInput(ctx, 1, "labels"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* weights, OptionalWeight(ctx, "weights"));
  const std::vector<int64_t>& dims = scores->shape().dims();
  if (dims.size() < 2) {
    return InvalidArgument("scores must have shape [N, C, d1, ...], got " +
                           scores->shape().ToString());
  }
  int64_t inner = 1;
  for (size_t k = 2; k < dims.size(); ++k) inner *= dims[k];
  ONNXGATE_ASSIGN_OR_RETURN(Tensor log_prob,
                            SoftmaxAlong(SoftmaxOp::kLogSoftmax, *scores, dims[0], dims[1], inner));
  ONNXGATE_ASSIGN_OR_RETURN(
      Tensor loss, NegativeLogLikelihood(log_prob, *labels, weights, reduction_, ignore_index_));
  ctx.set_output(0, std::move(loss));
  if (ctx.num_outputs() > 1) ctx.set_output(1, std::move(log_prob));
  return OkStatus();
}

}  // namespace onnxgate::ref
