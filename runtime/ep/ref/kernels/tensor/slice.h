// Slice: a strided sub-box of a tensor. Slice-1 takes starts/ends/axes as attributes; from
// Slice-10 they are inputs, with optional steps.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// ONNX's rules: negative starts/ends count from the back of the dim, then clamp to [0, dim]
// (positive step) or [-1, dim - 1] for ends and [0, dim - 1] for starts (negative step); the
// element count is ceil((end - start) / step), at least 0. Absent axes mean [0, 1, ...), absent
// steps mean 1. Axes may not repeat; negative axes need `allow_negative_axes` (Slice-11 on).
StatusOr<Tensor> Slice(const Tensor& x, const std::vector<int64_t>& starts,
                       const std::vector<int64_t>& ends,
                       const std::optional<std::vector<int64_t>>& axes,
                       const std::optional<std::vector<int64_t>>& steps, bool allow_negative_axes);

class SliceKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit SliceKernel(int version) : version_(version) {}
  int version_;
  // Slice-1's attributes.
  std::vector<int64_t> starts_, ends_;
  std::optional<std::vector<int64_t>> axes_;
};

}  // namespace onnxgate::ref
