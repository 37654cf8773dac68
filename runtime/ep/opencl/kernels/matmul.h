// MatMul (numpy.matmul: batched, broadcast batch dims, 1-D operands promoted) and Gemm on
// float32 (cl/matmul.cl).
#pragma once

#include <memory>

#include "runtime/ep/opencl/kernels/kernel_common.h"
#include "runtime/kernel/kernel_info.h"

namespace onnxgate::opencl_ep {

class MatMulKernel : public OpenClKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info, Context cl);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit MatMulKernel(Context cl) : OpenClKernel(std::move(cl)) {}
};

// Y = alpha * A' x B' + beta * C, with C unidirectionally broadcast to M x N (optional from
// Gemm-11). As in ONNX's reference, beta = 0 drops C, so an inf or NaN in C does not leak.
class GemmKernel : public OpenClKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info, Context cl);
  Status Compute(KernelContext& ctx) const override;

 private:
  GemmKernel(Context cl, float alpha, float beta, bool trans_a, bool trans_b)
      : OpenClKernel(std::move(cl)),
        alpha_(alpha),
        beta_(beta),
        trans_a_(trans_a),
        trans_b_(trans_b) {}

  float alpha_;
  float beta_;
  bool trans_a_;
  bool trans_b_;
};

}  // namespace onnxgate::opencl_ep
