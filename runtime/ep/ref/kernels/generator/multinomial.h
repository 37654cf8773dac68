// Multinomial: draws class indices from the categorical distribution that each row of
// unnormalized log-probabilities defines. Seeded as the other random generators (random.h): with
// a `seed` every run of the node draws the same indices, without one each run is seeded from
// std::random_device.
#pragma once

#include <memory>
#include <optional>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// For `logits` of shape [batch_size, class_size] (a float type): a tensor of `dtype` (int32 or
// int64) and shape [batch_size, sample_size] whose row b holds sample_size independent draws of
// class j with probability exp(logits[b, j]) / sum_k exp(logits[b, k]). -inf logits are classes
// of probability 0. InvalidArgument for another rank, no classes, a NaN or +inf logit, or a row
// whose logits are all -inf.
StatusOr<Tensor> Multinomial(const Tensor& logits, int64_t sample_size, DataType dtype,
                             uint64_t seed);

class MultinomialKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  MultinomialKernel(int64_t sample_size, DataType dtype, std::optional<float> seed)
      : sample_size_(sample_size), dtype_(dtype), seed_(seed) {}
  int64_t sample_size_;
  DataType dtype_;  // int32 or int64
  std::optional<float> seed_;
};

}  // namespace onnxgate::ref
