// Comparisons and boolean logic.
#include "runtime/ep/ref/kernels/logical/compare_logic.h"

#include <string>

#include "runtime/ep/ref/kernels/common/element_type_checks.h"
#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

namespace {
template <typename T>
void CompareLoop(CompareOp op, const Tensor& a, const Tensor& b, Tensor* y) {
  auto run = [&](auto cmp) {
    BroadcastBinary<T, T, bool>(a, b, y,
                                [&cmp](T x, T z) { return cmp(ToCompute(x), ToCompute(z)); });
  };
  using C = ComputeType<T>;
  switch (op) {
    case CompareOp::kEqual: run([](C x, C z) { return x == z; }); break;
    case CompareOp::kLess: run([](C x, C z) { return x < z; }); break;
    case CompareOp::kGreater: run([](C x, C z) { return x > z; }); break;
    case CompareOp::kLessOrEqual: run([](C x, C z) { return x <= z; }); break;
    case CompareOp::kGreaterOrEqual: run([](C x, C z) { return x >= z; }); break;
  }
}

}  // namespace

StatusOr<Tensor> Compare(CompareOp op, const Tensor& a, const Tensor& b) {
  ONNXGATE_RETURN_IF_ERROR(CheckSameElementType(a, b, "A and B"));
  ONNXGATE_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(a.shape(), b.shape()));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kBool, shape));
  if (a.dtype() == DataType::kBool) {
    CompareLoop<bool>(op, a, b, &y);
    return y;
  }
  if (a.dtype() == DataType::kString) {
    // Equal-19 compares strings byte for byte; the ordered comparisons take numbers only.
    if (op != CompareOp::kEqual) {
      return InvalidArgument("strings can only be compared for equality");
    }
    BroadcastBinary<std::string, std::string, bool>(
        a, b, &y, [](const std::string& x, const std::string& z) { return x == z; });
    return y;
  }
  ONNXGATE_RETURN_IF_ERROR(VisitArithmeticTypes(a.dtype(), [&](auto tag) {
    CompareLoop<decltype(tag)>(op, a, b, &y);
    return OkStatus();
  }));
  return y;
}

StatusOr<Tensor> Logic(LogicOp op, const Tensor& a, const Tensor& b) {
  ONNXGATE_RETURN_IF_ERROR(CheckBoolTensor(a, "A"));
  ONNXGATE_RETURN_IF_ERROR(CheckBoolTensor(b, "B"));
  ONNXGATE_ASSIGN_OR_RETURN(Shape shape, BroadcastShapes(a.shape(), b.shape()));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kBool, shape));
  switch (op) {
    case LogicOp::kAnd:
      BroadcastBinary<bool, bool, bool>(a, b, &y, [](bool x, bool z) { return x && z; });
      break;
    case LogicOp::kOr:
      BroadcastBinary<bool, bool, bool>(a, b, &y, [](bool x, bool z) { return x || z; });
      break;
    case LogicOp::kXor:
      BroadcastBinary<bool, bool, bool>(a, b, &y, [](bool x, bool z) { return x != z; });
      break;
  }
  return y;
}

StatusOr<Tensor> LogicalNot(const Tensor& x) {
  ONNXGATE_RETURN_IF_ERROR(CheckBoolTensor(x, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kBool, x.shape()));
  const bool* in = x.data<bool>();
  bool* out = y.mutable_data<bool>();
  for (int64_t i = 0, n = x.NumElements(); i < n; ++i) out[i] = !in[i];
  return y;
}

template <CompareOp kOp>
StatusOr<std::unique_ptr<OpKernel>> CompareKernel<kOp>::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(LegacyBroadcast legacy, LegacyBroadcast::FromInfo(info));
  return std::unique_ptr<OpKernel>(new CompareKernel(legacy));
}

template <CompareOp kOp>
Status CompareKernel<kOp>::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* a, GetInput(ctx, 0, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* b, GetInput(ctx, 1, "B"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor b_aligned, legacy_.AlignB(*a, *b));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor c, Compare(kOp, *a, b_aligned));
  ctx.set_output(0, std::move(c));
  return OkStatus();
}

template class CompareKernel<CompareOp::kEqual>;
template class CompareKernel<CompareOp::kLess>;
template class CompareKernel<CompareOp::kGreater>;
template class CompareKernel<CompareOp::kLessOrEqual>;
template class CompareKernel<CompareOp::kGreaterOrEqual>;

template <LogicOp kOp>
StatusOr<std::unique_ptr<OpKernel>> LogicKernel<kOp>::Create(const KernelInfo& info) {
  ONNXGATE_ASSIGN_OR_RETURN(LegacyBroadcast legacy, LegacyBroadcast::FromInfo(info));
  return std::unique_ptr<OpKernel>(new LogicKernel(legacy));
}

template <LogicOp kOp>
Status LogicKernel<kOp>::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* a, GetInput(ctx, 0, "A"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* b, GetInput(ctx, 1, "B"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor b_aligned, legacy_.AlignB(*a, *b));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor c, Logic(kOp, *a, b_aligned));
  ctx.set_output(0, std::move(c));
  return OkStatus();
}

template class LogicKernel<LogicOp::kAnd>;
template class LogicKernel<LogicOp::kOr>;
template class LogicKernel<LogicOp::kXor>;

Status NotKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, LogicalNot(*x));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
