// The element-type checks of element_type_checks.h.
#include "runtime/ep/ref/kernels/common/element_type_checks.h"

#include <string>

namespace onnxgate::ref {

Status CheckSameElementType(const Tensor& a, const Tensor& b, const char* what) {
  if (a.dtype() != b.dtype()) {
    return InvalidArgument(std::string(what) + " must have one element type, got " +
                           DataTypeShortName(a.dtype()) + " and " + DataTypeShortName(b.dtype()));
  }
  return OkStatus();
}

Status CheckBoolTensor(const Tensor& t, const char* name) {
  if (t.dtype() != DataType::kBool) {
    return InvalidArgument(std::string("'") + name + "' must be bool, got " +
                           DataTypeShortName(t.dtype()));
  }
  return OkStatus();
}

}  // namespace onnxgate::ref
