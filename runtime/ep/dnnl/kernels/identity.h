// Identity on dnnl: hands its input on without a copy. A tensor resident in one of oneDNN's
// layouts (dnnl_resident.h) stays resident and shared, so an Identity between two dnnl kernels
// costs no reorder; a host tensor is handed on as ref's Identity does, whose kernel runs it (the
// registry binds the element type alone, so a sequence or optional of float32 from Identity-14
// and -16 on arrives here too and passes through as it does on ref).
#pragma once

#include <memory>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::dnnl_ep {

class IdentityKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info,
                                                    std::shared_ptr<const DnnlContext> dnnl);
  Status Compute(KernelContext& ctx) const override;
  const void* resident_domain() const override { return dnnl_.get(); }

 private:
  IdentityKernel(std::shared_ptr<const DnnlContext> dnnl, std::unique_ptr<OpKernel> host)
      : dnnl_(std::move(dnnl)), host_(std::move(host)) {}

  std::shared_ptr<const DnnlContext> dnnl_;
  std::unique_ptr<OpKernel> host_;  // ref's Identity, for every input that is not resident
};

}  // namespace onnxgate::dnnl_ep
