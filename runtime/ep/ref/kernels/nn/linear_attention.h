// LinearAttention (opset 27): the recurrent linear-attention update over packed 3-D query, key
// and value, token by token, with the 'linear', 'gated', 'delta' or 'gated_delta' rule, grouped
// query heads sharing a KV head's state, and the state carried in past_state / present_state.
#pragma once

#include <memory>
#include <string>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class LinearAttentionKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  LinearAttentionKernel(int64_t q_heads, int64_t kv_heads, double scale, bool gated, bool delta)
      : q_heads_(q_heads), kv_heads_(kv_heads), scale_(scale), gated_(gated), delta_(delta) {}
  int64_t q_heads_;
  int64_t kv_heads_;
  double scale_;  // 0: 1/sqrt(d_k)
  bool gated_;    // decay multiplies the state by exp(g) before each update
  bool delta_;    // beta * (v - S^T k) replaces v in the update
};

}  // namespace onnxgate::ref
