// Elementwise activations on float32 (cl/elementwise.cl): Relu, LeakyRelu, Sigmoid, Tanh, Exp,
// Log, Sqrt, Abs and Neg, any rank, one work item per element.
#pragma once

#include <memory>
#include <string>

#include "runtime/ep/opencl/kernels/kernel_common.h"
#include "runtime/kernel/kernel_info.h"

namespace onnxgate::opencl_ep {

enum class UnaryOp { kRelu, kLeakyRelu, kSigmoid, kTanh, kExp, kLog, kSqrt, kAbs, kNeg };

class UnaryKernel : public OpenClKernel {
 public:
  // LeakyRelu reads `alpha` (default 0.01); the others take no attribute.
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info, UnaryOp op, Context cl);
  Status Compute(KernelContext& ctx) const override;

 private:
  UnaryKernel(Context cl, std::string kernel, float alpha)
      : OpenClKernel(std::move(cl)), kernel_(std::move(kernel)), alpha_(alpha) {}

  std::string kernel_;  // the __kernel of cl/elementwise.cl
  float alpha_;
};

}  // namespace onnxgate::opencl_ep
