// Identity: passes its input through (tensors; sequences from opset 14, optionals from 16).
#pragma once

#include <memory>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class IdentityKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit IdentityKernel(int version) : version_(version) {}
  int version_;
};

}  // namespace onnxgate::ref
