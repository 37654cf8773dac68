// Add, Sub, Mul and Div (version 7 on: numpy broadcasting) on oneDNN's binary primitive, float32.
#pragma once

#include <memory>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/ep/dnnl/dnnl_resident.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::dnnl_ep {

// The primitive of one pair of input shapes.
struct BinaryEntry {
  dnnl::binary::primitive_desc pd;
  dnnl::binary primitive;
  dnnl::memory::desc a, b, y;  // after broadcast axes were merged
  bool swapped = false;        // src0 is B (a commutative op whose A is the broadcast one)
};

// The broadcast shape of A and B is the output's. oneDNN's binary primitive broadcasts its
// second source cheaply, so for Add and Mul the operand that spans the output goes first; where
// it cannot (Sub or Div with a broadcast A) oneDNN broadcasts the first source itself. Operands of
// one shape of which one is resident are combined in their layouts, into the resident one's;
// other resident operands are taken as host copies.
class BinaryKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info,
                                                    dnnl::algorithm algorithm,
                                                    std::shared_ptr<const DnnlContext> dnnl);
  Status Compute(KernelContext& ctx) const override;
  const void* resident_domain() const override { return dnnl_.get(); }

 private:
  BinaryKernel(std::shared_ptr<const DnnlContext> dnnl, dnnl::algorithm algorithm)
      : dnnl_(std::move(dnnl)), algorithm_(algorithm) {}
  bool commutative() const;
  // The primitive from a to b into y (src0 is b when `swapped`).
  StatusOr<std::shared_ptr<const BinaryEntry>> MakeEntry(const dnnl::memory::desc& a,
                                                         const dnnl::memory::desc& b,
                                                         const dnnl::memory::desc& y,
                                                         bool swapped) const;
  // A and B of one shape, at least one resident.
  Status ComputeInLayout(KernelContext& ctx, const DnnlInput& a, const DnnlInput& b) const;

  std::shared_ptr<const DnnlContext> dnnl_;
  dnnl::algorithm algorithm_;
  PrimitiveCache<BinaryEntry> cache_;
};

}  // namespace onnxgate::dnnl_ep
