// Transpose: permutes the dims of a tensor (reverses them when no perm is given).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// Output dim i is input dim perm[i]; an absent perm reverses the dims. InvalidArgument when perm
// is not a permutation of [0, rank).
StatusOr<Tensor> Transpose(const Tensor& x, const std::optional<std::vector<int64_t>>& perm);

class TransposeKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit TransposeKernel(std::optional<std::vector<int64_t>> perm) : perm_(std::move(perm)) {}
  std::optional<std::vector<int64_t>> perm_;
};

}  // namespace onnxgate::ref
