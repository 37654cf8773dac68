// Loop: runs a body graph while a trip count and/or a condition allow, threading loop-carried
// values through the iterations and stacking the body's scan outputs along a new first axis.
#pragma once

#include <memory>
#include <vector>

#include "runtime/ep/ref/kernels/controlflow/control_flow_util.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class LoopKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  LoopKernel(int version, std::shared_ptr<const SubgraphExecutor> body, size_t num_carried,
             std::vector<DeclaredType> scan_types)
      : version_(version),
        body_(std::move(body)),
        num_carried_(num_carried),
        scan_types_(std::move(scan_types)) {}
  // Whether a loop-carried value of this kind may flow through this op version.
  Status CheckCarried(const Value& v, const char* what, size_t index) const;

  int version_;
  std::shared_ptr<const SubgraphExecutor> body_;
  size_t num_carried_;                    // N: loop-carried values
  std::vector<DeclaredType> scan_types_;  // K: declared types of the scan outputs
};

}  // namespace onnxgate::ref
