// Float32 inputs for the opencl kernels.
#include "runtime/ep/opencl/kernels/kernel_common.h"

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::opencl_ep {

StatusOr<const Tensor*> FloatInput(const KernelContext& ctx, size_t index, const char* name) {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* t, GetInput(ctx, index, name));
  if (t->dtype() != DataType::kFloat) {
    return Unimplemented(std::string("the opencl kernels take float32 only; input '") + name +
                         "' is " + DataTypeName(t->dtype()));
  }
  return t;
}

}  // namespace onnxgate::opencl_ep
