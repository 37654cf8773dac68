// Dropout: the identity at inference (every version, and versions 12+ whose training_mode is
// absent or false); in training mode (12+) each element is kept with probability 1 - ratio and
// scaled by 1 / (1 - ratio). The optional mask says which elements were kept.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::ref {

class Dropout : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  Dropout(int version, float ratio, std::optional<int64_t> seed)
      : version_(version), ratio_(ratio), seed_(seed) {}
  int version_;
  float ratio_;                  // the attribute (before 12) or the default of the input
  std::optional<int64_t> seed_;  // training-mode random seed (12+)
};

}  // namespace onnxgate::ref
