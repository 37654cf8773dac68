// BitCast (opset 26): the input's bits seen as another element type of the same bit width.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// `x` reinterpreted as `to`: the same shape and the same storage bytes (little endian, as ONNX
// specifies and as this runtime stores every type). InvalidArgument when either type is a
// string or the bit widths differ, and when `to` is bool and a byte is neither 0 nor 1 (such a
// byte has no bool value).
StatusOr<Tensor> BitCast(const Tensor& x, DataType to);

class BitCastKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit BitCastKernel(DataType to) : to_(to) {}
  DataType to_;
};

}  // namespace onnxgate::ref
