// FlexAttention (ai.onnx.preview, version 1): scaled dot-product attention over 4-D Q, K and V
// with grouped-query heads, whose scores and probabilities optional subgraphs (score_mod,
// prob_mod) may rewrite; the softmax runs in softmax_precision.
#pragma once

#include <memory>
#include <optional>

#include "runtime/base/data_type.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class FlexAttentionKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  FlexAttentionKernel(std::optional<double> scale, std::optional<DataType> softmax_precision,
                      std::shared_ptr<const SubgraphExecutor> score_mod,
                      std::shared_ptr<const SubgraphExecutor> prob_mod)
      : scale_(scale),
        softmax_precision_(softmax_precision),
        score_mod_(std::move(score_mod)),
        prob_mod_(std::move(prob_mod)) {}
  std::optional<double> scale_;                        // default 1/sqrt(head_size)
  std::optional<DataType> softmax_precision_;          // default float, double for double inputs
  std::shared_ptr<const SubgraphExecutor> score_mod_;  // may be null
  std::shared_ptr<const SubgraphExecutor> prob_mod_;   // may be null
};

}  // namespace onnxgate::ref
