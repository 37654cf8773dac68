// EyeLike (opset 9; 22 adds bfloat16): a 2-D tensor of the input's shape with ones on one
// diagonal and zeros elsewhere.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "runtime/base/tensor.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// A tensor of `dtype` (a number type or bool) and 2-D `shape` with 1 where j - i == k and 0
// elsewhere.
StatusOr<Tensor> EyeLike(const Shape& shape, DataType dtype, int64_t k);

class EyeLikeKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  EyeLikeKernel(std::optional<DataType> dtype, int64_t k) : dtype_(dtype), k_(k) {}
  std::optional<DataType> dtype_;  // nullopt: the input's type
  int64_t k_;
};

}  // namespace onnxgate::ref
