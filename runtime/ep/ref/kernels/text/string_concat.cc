// StringConcat.
#include "runtime/ep/ref/kernels/text/string_concat.h"

#include <string>

#include "runtime/provider/common/broadcast.h"

namespace onnxgate::ref {

Status StringConcatKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "X"));
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* y, GetInput(ctx, 1, "Y"));
  if (x->dtype() != DataType::kString || y->dtype() != DataType::kString) {
    return InvalidArgument(std::string("X and Y must be strings, got ") +
                           DataTypeShortName(x->dtype()) + " and " + DataTypeShortName(y->dtype()));
  }
  ONNXGATE_ASSIGN_OR_RETURN(Shape shape, BroadcastShapeOf({x->shape(), y->shape()}));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor z, NewTensor(DataType::kString, shape));
  BroadcastBinary<std::string, std::string, std::string>(
      *x, *y, &z, [](const std::string& a, const std::string& b) { return a + b; });
  ctx.set_output(0, std::move(z));
  return OkStatus();
}

}  // namespace onnxgate::ref
