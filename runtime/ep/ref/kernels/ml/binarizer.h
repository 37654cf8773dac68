// Binarizer (ai.onnx.ml 1): 1 where X > 'threshold', else 0 (NaN gives 0), in X's type.
#pragma once

#include <memory>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class BinarizerKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit BinarizerKernel(float threshold) : threshold_(threshold) {}
  float threshold_;
};

}  // namespace onnxgate::ref
