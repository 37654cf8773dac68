// RMSNormalization (opset 23): X divided by the root mean square of its trailing axes from `axis`
// on (plus epsilon), computed in stash_type, then multiplied by Scale (broadcast to X).
#pragma once

#include <memory>

#include "runtime/base/data_type.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class RmsNormalizationKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  RmsNormalizationKernel(int64_t axis, double epsilon, DataType stash)
      : axis_(axis), epsilon_(epsilon), stash_type_(stash) {}
  int64_t axis_;
  double epsilon_;
  DataType stash_type_;
};

}  // namespace onnxgate::ref
