// StringConcat (opset 20): Z = X + Y elementwise on string tensors, with numpy broadcasting.
#pragma once

#include <memory>

#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

class StringConcatKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  explicit StringConcatKernel(const KernelInfo& info) : RefKernel(info) {}
};

}  // namespace onnxgate::ref
