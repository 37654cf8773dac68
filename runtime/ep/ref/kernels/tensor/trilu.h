// Trilu (opset 14): keeps the upper or lower triangle of each matrix in the last two dims
// (EyeLike, of the generator family, is generator/eye_like.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// For x of shape [*, N, M]: keeps x[..., i, j] where j - i >= k (upper) or j - i <= k (lower)
// and zeroes the rest (false, "" and 0 for bool, string and complex). InvalidArgument for
// rank < 2.
StatusOr<Tensor> Trilu(const Tensor& x, int64_t k, bool upper);

class TriluKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit TriluKernel(bool upper) : upper_(upper) {}
  bool upper_;
};

}  // namespace onnxgate::ref
