// LayerNormalization (opset 17): normalizes X over the axes from `axis` on, then applies Scale
// and the optional B (both broadcast to X); optional outputs Mean and InvStdDev.
#pragma once

#include <memory>

#include "runtime/base/data_type.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::ref {

class LayerNormalization : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  LayerNormalization(int64_t axis, double epsilon, DataType stash_type)
      : axis_(axis), epsilon_(epsilon), stash_type_(stash_type) {}
  int64_t axis_;
  double epsilon_;
  DataType stash_type_;  // the element type of Mean and InvStdDev
};

}  // namespace onnxgate::ref
