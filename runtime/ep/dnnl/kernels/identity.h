// Identity on dnnl: hands its input on without a copy. A tensor resident in one of oneDNN's
// layouts (dnnl_resident.h) stays resident and shared, so an Identity between two dnnl kernels
// costs no reorder; a host tensor is handed on by the host provider's Identity (ref's), borrowed
// through its registry (borrowed_kernel.h) (the
// registry binds the element type alone, so a sequence or optional of float32 from Identity-14
// and -16 on arrives here too and passes through as it does on ref).
#pragma once

#include <memory>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/provider/execution_provider.h"

namespace onnxgate::dnnl_ep {

class IdentityKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(
      const KernelInfo& info, std::shared_ptr<const DnnlContext> dnnl,
      const std::shared_ptr<const ExecutionProvider>& host_provider);
  Status Compute(KernelContext& ctx) const override;
  const void* resident_domain() const override { return dnnl_.get(); }

 private:
  IdentityKernel(std::shared_ptr<const DnnlContext> dnnl, std::unique_ptr<OpKernel> host)
      : dnnl_(std::move(dnnl)), host_(std::move(host)) {}

  std::shared_ptr<const DnnlContext> dnnl_;
  std::unique_ptr<OpKernel> host_;  // the host provider's Identity, for every other input
};

}  // namespace onnxgate::dnnl_ep
