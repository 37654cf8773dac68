// Transpose: permutes the dims of a tensor (reverses them when no perm is given).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

// Output dim i is input dim perm[i]; an absent perm reverses the dims. InvalidArgument when perm
// is not a permutation of [0, rank).
StatusOr<Tensor> Transpose(const Tensor& x, const std::optional<std::vector<int64_t>>& perm);

class TransposeKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  TransposeKernel(const KernelInfo& info, std::optional<std::vector<int64_t>> perm)
      : RefKernel(info), perm_(std::move(perm)) {}
  std::optional<std::vector<int64_t>> perm_;
};

}  // namespace onnxgate::ref
