// Binarizer (ai.onnx.ml 1): 1 where X > 'threshold', else 0 (NaN gives 0), in X's type.
#pragma once

#include <memory>

#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

class BinarizerKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  BinarizerKernel(const KernelInfo& info, float threshold)
      : RefKernel(info), threshold_(threshold) {}
  float threshold_;
};

}  // namespace onnxgate::ref
