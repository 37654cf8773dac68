// Attention (opsets 23, 24, 25): scaled dot-product attention over 3-D (heads packed in the last
// axis) or 4-D (batch, heads, sequence, head size) Q, K and V, with grouped-query heads, an
// optional boolean or additive attn_mask, causal and (opset 25) sliding-window masking, an
// internal KV cache (past_key / past_value in, present_key / present_value out) or (opset 24)
// an external one described by nonpad_kv_seqlen, softcap, softmax_precision and the optional
// qk_matmul_output.
#pragma once

#include <memory>
#include <optional>

#include "runtime/base/data_type.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

struct AttentionAttributes {
  bool is_causal = false;
  std::optional<int64_t> q_num_heads;
  std::optional<int64_t> kv_num_heads;
  int64_t qk_matmul_output_mode = 0;  // 0 raw Q*K^T, 1 after softcap, 2 plus bias, 3 softmax
  std::optional<double> scale;        // default 1/sqrt(head_size)
  double softcap = 0;                 // 0: none
  std::optional<DataType> softmax_precision;
  int64_t left_window_size = -1;  // -1: unbounded (opset 25)
  int64_t right_window_size = -1;
};

class AttentionKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  AttentionKernel(int version, AttentionAttributes attrs) : version_(version), attrs_(attrs) {}
  int version_;
  AttentionAttributes attrs_;
};

}  // namespace onnxgate::ref
