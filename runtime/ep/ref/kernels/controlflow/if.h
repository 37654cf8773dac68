// If: runs one of two subgraphs, chosen by a bool condition, and returns its outputs.
#pragma once

#include <memory>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class IfKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  IfKernel(int version, std::shared_ptr<const SubgraphExecutor> then_branch,
           std::shared_ptr<const SubgraphExecutor> else_branch)
      : version_(version),
        then_branch_(std::move(then_branch)),
        else_branch_(std::move(else_branch)) {}
  int version_;
  std::shared_ptr<const SubgraphExecutor> then_branch_;
  std::shared_ptr<const SubgraphExecutor> else_branch_;
};

}  // namespace onnxgate::ref
