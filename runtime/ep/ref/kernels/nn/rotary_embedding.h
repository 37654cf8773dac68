// RotaryEmbedding (opset 23): rotates the first rotary_embedding_dim features of each head by
// the position's angles from cos_cache and sin_cache, pairing the two halves of that span or
// (interleaved) adjacent features; the rest of the head passes through.
#pragma once

#include <memory>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class RotaryEmbeddingKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  RotaryEmbeddingKernel(bool interleaved, int64_t rotary_dim, int64_t num_heads)
      : interleaved_(interleaved), rotary_dim_(rotary_dim), num_heads_(num_heads) {}
  bool interleaved_;
  int64_t rotary_dim_;  // 0: the whole head
  int64_t num_heads_;   // 0: not given
};

}  // namespace onnxgate::ref
