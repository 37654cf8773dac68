// Checks of input element types that the ref kernels of several families share, in one wording.
#pragma once

#include "runtime/base/status.h"
#include "runtime/base/tensor.h"

namespace onnxgate::ref {

// InvalidArgument "<what> must have one element type, got <a> and <b>" when they differ.
Status CheckSameElementType(const Tensor& a, const Tensor& b, const char* what);

// InvalidArgument "'<name>' must be bool, got <type>" for any other element type.
Status CheckBoolTensor(const Tensor& t, const char* name);

}  // namespace onnxgate::ref
