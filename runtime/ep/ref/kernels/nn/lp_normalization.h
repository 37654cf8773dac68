// LpNormalization: output = input / ||input||_p along `axis`, with p 1 or 2; where the norm is
// zero the output is zero.
#pragma once

#include <cstdint>
#include <memory>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class LpNormalization : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  LpNormalization(int64_t axis, int64_t p) : axis_(axis), p_(p) {}
  int64_t axis_;
  int64_t p_;
};

}  // namespace onnxgate::ref
