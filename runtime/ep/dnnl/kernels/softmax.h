// Softmax-13 and LogSoftmax-13 (along one axis) on oneDNN's softmax and logsoftmax primitives,
// float32. Versions 1 and 11 flatten the input to 2-D around the axis and are not claimed.
// LogSoftmax runs on oneDNN's reference implementation (dnnl_common.h says why).
#pragma once

#include <memory>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::dnnl_ep {

struct SoftmaxEntry {
  dnnl::primitive_desc_base pd;
  dnnl::primitive primitive;
  dnnl::memory::desc md;
};

class SoftmaxKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info, bool log,
                                                    std::shared_ptr<const DnnlContext> dnnl);
  Status Compute(KernelContext& ctx) const override;

 private:
  SoftmaxKernel(std::shared_ptr<const DnnlContext> dnnl, bool log, int64_t axis)
      : dnnl_(std::move(dnnl)), log_(log), axis_(axis) {}

  std::shared_ptr<const DnnlContext> dnnl_;
  bool log_;
  int64_t axis_;
  PrimitiveCache<SoftmaxEntry> cache_;
};

}  // namespace onnxgate::dnnl_ep
