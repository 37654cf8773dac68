// Concat (versions 4 to 13, float32) on oneDNN's concat primitive over dense inputs. Inputs with
// no elements add nothing and are left out of the primitive (oneDNN takes no zero-size source).
#pragma once

#include <memory>
#include <vector>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::dnnl_ep {

struct ConcatEntry {
  dnnl::concat::primitive_desc pd;
  dnnl::concat primitive;
  std::vector<dnnl::memory::desc> sources;
  dnnl::memory::desc destination;
};

class ConcatKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info,
                                                    std::shared_ptr<const DnnlContext> dnnl);
  Status Compute(KernelContext& ctx) const override;

 private:
  ConcatKernel(std::shared_ptr<const DnnlContext> dnnl, int64_t axis, bool allow_negative)
      : dnnl_(std::move(dnnl)), axis_(axis), allow_negative_(allow_negative) {}

  std::shared_ptr<const DnnlContext> dnnl_;
  int64_t axis_;
  bool allow_negative_;  // from Concat-11
  PrimitiveCache<ConcatEntry> cache_;
};

}  // namespace onnxgate::dnnl_ep
