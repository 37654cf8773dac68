// Max, Min, Sum and Mean.
#include "runtime/ep/ref/kernels/math/variadic_math.h"

#include <cmath>

#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {

template <typename C>
bool IsNan(C v) {
  if constexpr (std::is_floating_point_v<C>) {
    return std::isnan(v);
  } else {
    return false;
  }
}

template <typename T>
void Reduce(VariadicOp op, const std::vector<const Tensor*>& inputs, Tensor* y) {
  using C = ComputeType<T>;
  // Float sums accumulate in double; the Sum of integer types is not an ONNX op.
  using Acc = std::conditional_t<kIsFloat<T>, double, C>;
  std::vector<const T*> data;
  std::vector<Shape> shapes;
  for (const Tensor* t : inputs) {
    data.push_back(t->data<T>());
    shapes.push_back(t->shape());
  }
  T* out = y->mutable_data<T>();
  const size_t n = inputs.size();
  ForEachBroadcast(y->shape(), shapes, [&](int64_t i, const int64_t* off) {
    if (op == VariadicOp::kMax || op == VariadicOp::kMin) {
      C best = ToCompute(data[0][off[0]]);
      for (size_t k = 1; k < n && !IsNan(best); ++k) {
        C v = ToCompute(data[k][off[k]]);
        if (IsNan(v) || (op == VariadicOp::kMax ? v > best : v < best)) best = v;
      }
      out[i] = FromCompute<T>(best);
    } else {
      Acc sum = 0;
      for (size_t k = 0; k < n; ++k) sum += static_cast<Acc>(ToCompute(data[k][off[k]]));
      if (op == VariadicOp::kMean) sum /= static_cast<Acc>(n);
      out[i] = FromCompute<T>(static_cast<C>(sum));
    }
  });
}

}  // namespace

StatusOr<Tensor> VariadicMath(VariadicOp op, const std::vector<const Tensor*>& inputs,
                              bool broadcast) {
  if (inputs.empty()) return InvalidArgument("needs at least one input");
  std::vector<Shape> shapes;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k]->dtype() != inputs[0]->dtype()) {
      return InvalidArgument("input " + std::to_string(k) + " has type " +
                             DataTypeShortName(inputs[k]->dtype()) + " but input 0 has " +
                             DataTypeShortName(inputs[0]->dtype()));
    }
    if (!broadcast && inputs[k]->shape() != inputs[0]->shape()) {
      return InvalidArgument("this op version needs inputs of one shape, got " +
                             inputs[0]->shape().ToString() + " and " +
                             inputs[k]->shape().ToString() + " (input " + std::to_string(k) + ")");
    }
    shapes.push_back(inputs[k]->shape());
  }
  ONNXGATE_ASSIGN_OR_RETURN(Shape shape, BroadcastShapeOf(shapes));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(inputs[0]->dtype(), shape));
  ONNXGATE_RETURN_IF_ERROR(VisitArithmeticTypes(y.dtype(), [&](auto tag) {
    Reduce<decltype(tag)>(op, inputs, &y);
    return OkStatus();
  }));
  return y;
}

template <VariadicOp kOp>
StatusOr<std::unique_ptr<OpKernel>> VariadicMathKernel<kOp>::Create(const KernelInfo& info) {
  return std::unique_ptr<OpKernel>(new VariadicMathKernel(info.since_version() >= 8));
}

template <VariadicOp kOp>
Status VariadicMathKernel<kOp>::Compute(KernelContext& ctx) const {
  std::vector<const Tensor*> inputs;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, i, "data_i"));
    inputs.push_back(t);
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, VariadicMath(kOp, inputs, broadcast_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

template class VariadicMathKernel<VariadicOp::kMax>;
template class VariadicMathKernel<VariadicOp::kMin>;
template class VariadicMathKernel<VariadicOp::kSum>;
template class VariadicMathKernel<VariadicOp::kMean>;

}  // namespace onnxgate::ref
