// Trilu (opset 14) and EyeLike (opset 9): matrices defined by their diagonals. Trilu keeps the
// upper or lower triangle of each matrix in the last two dims; EyeLike makes a 2-D tensor with
// ones on one diagonal.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "runtime/base/tensor.h"
#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

// For x of shape [*, N, M]: keeps x[..., i, j] where j - i >= k (upper) or j - i <= k (lower)
// and zeroes the rest (false, "" and 0 for bool, string and complex). InvalidArgument for
// rank < 2.
StatusOr<Tensor> Trilu(const Tensor& x, int64_t k, bool upper);

// A tensor of `dtype` (a number type or bool) and 2-D `shape` with 1 where j - i == k and 0
// elsewhere.
StatusOr<Tensor> EyeLike(const Shape& shape, DataType dtype, int64_t k);

class TriluKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit TriluKernel(bool upper) : upper_(upper) {}
  bool upper_;
};

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
