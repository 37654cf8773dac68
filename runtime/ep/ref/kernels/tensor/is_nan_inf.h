// IsNaN and IsInf: a bool tensor marking the elements that are NaN, or infinite (either sign,
// as the attributes select).
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// bool tensors: NaN, or +inf / -inf as selected; for the float types and FLOAT8 (decoded).
StatusOr<Tensor> IsNaN(const Tensor& x);

StatusOr<Tensor> IsInf(const Tensor& x, bool detect_positive, bool detect_negative);

class IsNaNKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

class IsInfKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  IsInfKernel(bool positive, bool negative) : positive_(positive), negative_(negative) {}
  bool positive_, negative_;
};

}  // namespace onnxgate::ref
