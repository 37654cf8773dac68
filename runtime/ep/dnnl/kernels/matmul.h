// MatMul (numpy's matmul: batched, batch dims broadcast, 1-D operands promoted and squeezed) and
// Gemm (transA, transB, alpha, beta, C broadcast to [M, N]) on oneDNN's matmul primitive,
// float32; Gemm adds beta * C with the binary primitive.
#pragma once

#include <memory>
#include <optional>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::dnnl_ep {

struct MatMulEntry {
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul primitive;
  dnnl::memory::desc a, b, y;
  // Gemm with C: Y += beta * C.
  std::optional<dnnl::binary::primitive_desc> add_pd;
  std::optional<dnnl::binary> add;
  dnnl::memory::desc c;
};

class MatMulKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info,
                                                    std::shared_ptr<const DnnlContext> dnnl);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit MatMulKernel(std::shared_ptr<const DnnlContext> dnnl) : dnnl_(std::move(dnnl)) {}

  std::shared_ptr<const DnnlContext> dnnl_;
  PrimitiveCache<MatMulEntry> cache_;
};

// Gemm-7 on (C always broadcasts unidirectionally; from 11 it is optional).
class GemmKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info,
                                                    std::shared_ptr<const DnnlContext> dnnl);
  Status Compute(KernelContext& ctx) const override;

 private:
  GemmKernel(std::shared_ptr<const DnnlContext> dnnl, bool trans_a, bool trans_b, float alpha,
             float beta)
      : dnnl_(std::move(dnnl)), trans_a_(trans_a), trans_b_(trans_b), alpha_(alpha), beta_(beta) {}

  std::shared_ptr<const DnnlContext> dnnl_;
  bool trans_a_, trans_b_;
  float alpha_, beta_;
  PrimitiveCache<MatMulEntry> cache_;
};

}  // namespace onnxgate::dnnl_ep
