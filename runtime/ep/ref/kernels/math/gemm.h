// Gemm: Y = alpha * A' x B' + beta * C, with A' and B' optionally transposed and C
// unidirectionally broadcast to the M x N result (C optional from Gemm-11). Gemm-1 and Gemm-6
// broadcast C only when their `broadcast` attribute is non-zero; otherwise C must be M x N.
#pragma once

#include <memory>

#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::ref {

class Gemm : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  Gemm(double alpha, double beta, bool trans_a, bool trans_b, bool c_optional, bool c_must_match)
      : alpha_(alpha),
        beta_(beta),
        trans_a_(trans_a),
        trans_b_(trans_b),
        c_optional_(c_optional),
        c_must_match_(c_must_match) {}

  double alpha_;
  double beta_;
  bool trans_a_;
  bool trans_b_;
  bool c_optional_;
  bool c_must_match_;  // Gemm-1/6 with broadcast = 0: C must already be M x N
};

}  // namespace onnxgate::ref
