// TensorScatter (opset 24): writes `update` into a copy of `past_cache` along the sequence
// axis, at a write index per batch entry, linearly or wrapping around (the KV-cache update of
// attention).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// present = past_cache with update[p..., s, q...] written at [p..., w + s, q...] for the prefix
// p (dims before `axis`, normalized in [1, rank)) and w = write_indices[p_0] (0 when absent);
// with `circular`, (w + s) mod max_sequence_length. InvalidArgument when the shapes differ
// outside the axis, the update is longer than the cache, an index is negative, or (linear) a
// write runs past the cache's end.
StatusOr<Tensor> TensorScatter(const Tensor& past_cache, const Tensor& update,
                               const std::optional<std::vector<int64_t>>& write_indices,
                               int64_t axis, bool circular);

class TensorScatterKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  TensorScatterKernel(int64_t axis, bool circular) : axis_(axis), circular_(circular) {}
  int64_t axis_;
  bool circular_;  // mode "circular"; "linear" otherwise
};

}  // namespace onnxgate::ref
