// MeanVarianceNormalization: y = (x - mean) / (sqrt(variance) + 1e-9), the mean and (biased)
// variance taken over `axes` (default [0, 2, 3]), as the op's function body defines it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::ref {

class MeanVarianceNormalization : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit MeanVarianceNormalization(std::vector<int64_t> axes) : axes_(std::move(axes)) {}
  std::vector<int64_t> axes_;
};

}  // namespace onnxgate::ref
