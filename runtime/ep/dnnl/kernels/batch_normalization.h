// BatchNormalization in inference (versions 9 to 15, float32) on oneDNN's batch_normalization
// primitive with the given statistics (use_global_stats) and per-channel scale and shift: X seen
// as [N, C, S], S the product of its spatial dims. A node in training mode (training_mode = 1,
// or outputs beyond Y) is declined at load: it updates running statistics, which oneDNN's
// inference primitive does not compute.
#pragma once

#include <memory>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::dnnl_ep {

struct BatchNormalizationEntry {
  dnnl::primitive_desc_base pd;
  dnnl::primitive primitive;
  dnnl::memory::desc data;
  dnnl::memory::desc channels;
};

class BatchNormalizationKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info,
                                                    std::shared_ptr<const DnnlContext> dnnl);
  Status Compute(KernelContext& ctx) const override;

 private:
  BatchNormalizationKernel(std::shared_ptr<const DnnlContext> dnnl, float epsilon)
      : dnnl_(std::move(dnnl)), epsilon_(epsilon) {}

  std::shared_ptr<const DnnlContext> dnnl_;
  float epsilon_;
  PrimitiveCache<BatchNormalizationEntry> cache_;
};

}  // namespace onnxgate::dnnl_ep
