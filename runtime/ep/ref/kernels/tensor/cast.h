// Cast and CastLike: element type conversion between every numeric type, bool, float16,
// bfloat16 and string.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

// Converts every element of `x` to `to`:
// - float -> integer truncates toward zero; NaN gives 0 and out-of-range values saturate (ONNX
//   leaves both undefined);
// - integer -> narrower integer wraps in two's complement (as C and numpy);
// - anything -> bool is "!= 0" (NaN is true); bool -> number is 0 or 1;
// - to float16/bfloat16 rounds to nearest even, once;
// - number -> string and string -> number as in cast_string.h.
// Unimplemented for complex types; InvalidArgument for text that is not a number.
StatusOr<Tensor> CastTensor(const Tensor& x, DataType to);

class CastKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  CastKernel(const KernelInfo& info, DataType to) : RefKernel(info), to_(to) {}
  DataType to_;
};

// CastLike-15: Cast to the element type of the second input.
class CastLikeKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  using RefKernel::RefKernel;
  Status Run(KernelContext& ctx) const override;
};

}  // namespace onnxgate::ref
