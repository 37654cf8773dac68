// Comparisons, boolean logic and Where.
#include "runtime/ep/ref/kernels/logical/compare_logic.h"

#include <string>

#include "runtime/ep/ref/kernels/common/compute_type.h"

namespace onnxgate::ref {

namespace {

Status CheckSameType(const Tensor& a, const Tensor& b, const char* what) {
  if (a.dtype() != b.dtype()) {
    return InvalidArgument(std::string(what) + " must have one element type, got " +
                           DataTypeShortName(a.dtype()) + " and " + DataTypeShortName(b.dtype()));
  }
  return OkStatus();
}

Status CheckBool(const Tensor& t, const char* name) {
  if (t.dtype() != DataType::kBool) {
    return InvalidArgument(std::string("'") + name + "' must be bool, got " +
                           DataTypeShortName(t.dtype()));
  }
  return OkStatus();
}

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
  ONNXGATE_RETURN_IF_ERROR(CheckSameType(a, b, "A and B"));
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
  ONNXGATE_RETURN_IF_ERROR(CheckBool(a, "A"));
  ONNXGATE_RETURN_IF_ERROR(CheckBool(b, "B"));
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
  ONNXGATE_RETURN_IF_ERROR(CheckBool(x, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(DataType::kBool, x.shape()));
  const bool* in = x.data<bool>();
  bool* out = y.mutable_data<bool>();
  for (int64_t i = 0, n = x.NumElements(); i < n; ++i) out[i] = !in[i];
  return y;
}

StatusOr<Tensor> Where(const Tensor& condition, const Tensor& x, const Tensor& y) {
  ONNXGATE_RETURN_IF_ERROR(CheckBool(condition, "condition"));
  ONNXGATE_RETURN_IF_ERROR(CheckSameType(x, y, "X and Y"));
  ONNXGATE_ASSIGN_OR_RETURN(Shape shape,
                            BroadcastShapeOf({condition.shape(), x.shape(), y.shape()}));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor out, NewTensor(x.dtype(), shape));
  ONNXGATE_RETURN_IF_ERROR(VisitAllTypes(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const bool* pc = condition.data<bool>();
    const T* px = x.data<T>();
    const T* py = y.data<T>();
    T* po = out.mutable_data<T>();
    ForEachBroadcast(
        shape, {condition.shape(), x.shape(), y.shape()},
        [&](int64_t i, const int64_t* off) { po[i] = pc[off[0]] ? px[off[1]] : py[off[2]]; });
    return OkStatus();
  }));
  return out;
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

Status WhereKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* condition, GetInput(ctx, 0, "condition"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 1, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* y, GetInput(ctx, 2, "Y"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor out, Where(*condition, *x, *y));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

}  // namespace onnxgate::ref
