// Constant (a tensor from attributes) and ConstantOfShape (a tensor of one repeated value).
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// The tensor a Constant node's attributes define: `value` (every version), or from Constant-12
// one of value_float, value_floats, value_int, value_ints, value_string, value_strings (scalars
// and 1-D tensors of float, int64 and string). Exactly one must be set; `sparse_value`
// (Constant-11 on) is Unimplemented. The element type must be one the version allows.
StatusOr<Tensor> ConstantFromAttributes(const KernelInfo& info);

class ConstantKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit ConstantKernel(Tensor value) : value_(std::move(value)) {}
  Tensor value_;
};

// A tensor of `shape` (a 1-D int64 tensor of non-negative dims; empty gives a scalar) filled with
// the single element of `value` (any type but string and complex, packed sub-byte types too).
StatusOr<Tensor> ConstantOfShape(const Tensor& shape, const Tensor& value);

class ConstantOfShapeKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit ConstantOfShapeKernel(Tensor value) : value_(std::move(value)) {}
  Tensor value_;  // one element; float 0 when the attribute is absent
};

}  // namespace onnxgate::ref
