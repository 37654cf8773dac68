// SequenceMap: runs a body graph once per position of its input sequence, feeding the body that
// position of every sequence input and every tensor input whole, and collects each body output
// into an output sequence.
#pragma once

#include <memory>
#include <vector>

#include "runtime/ep/ref/kernels/controlflow/control_flow_util.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class SequenceMapKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  SequenceMapKernel(std::shared_ptr<const SubgraphExecutor> body,
                    std::vector<DeclaredType> output_types)
      : body_(std::move(body)), output_types_(std::move(output_types)) {}

  std::shared_ptr<const SubgraphExecutor> body_;
  // Declared element types of the body's outputs: those of the outputs of an empty map.
  std::vector<DeclaredType> output_types_;
};

}  // namespace onnxgate::ref
