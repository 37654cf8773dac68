// Where.
#include "runtime/ep/ref/kernels/tensor/where.h"

#include <string>

#include "runtime/ep/ref/kernels/common/element_type_checks.h"
#include "runtime/provider/common/compute_type.h"

namespace onnxgate::ref {

StatusOr<Tensor> Where(const Tensor& condition, const Tensor& x, const Tensor& y) {
  ONNXGATE_RETURN_IF_ERROR(CheckBoolTensor(condition, "condition"));
  ONNXGATE_RETURN_IF_ERROR(CheckSameElementType(x, y, "X and Y"));
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

Status WhereKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* condition, GetInput(ctx, 0, "condition"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 1, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* y, GetInput(ctx, 2, "Y"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor out, Where(*condition, *x, *y));
  ctx.set_output(0, std::move(out));
  return OkStatus();
}

}  // namespace onnxgate::ref
