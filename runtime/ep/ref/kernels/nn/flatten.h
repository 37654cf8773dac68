// Flatten: the input seen as a 2-D matrix, (d_0 * ... * d_{axis-1}, d_axis * ... * d_{r-1}).
// The output shares the input's storage (tensors are immutable once produced).
#pragma once

#include <memory>

#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::ref {

class FlattenKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  FlattenKernel(int64_t axis, bool allow_negative) : axis_(axis), allow_negative_(allow_negative) {}
  int64_t axis_;
  bool allow_negative_;
};

}  // namespace onnxgate::ref
