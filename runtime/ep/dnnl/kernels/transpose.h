// Transpose (versions 1 to 25, float32) as one oneDNN reorder: the input is described under the
// output's dims with its own strides permuted, and reordered into a dense output.
#pragma once

#include <memory>
#include <vector>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::dnnl_ep {

// Transpose's `perm` for data of rank `rank`: the reversed axes when `perm` is empty (the
// attribute's default); InvalidArgument when it is not a permutation of 0..rank-1.
StatusOr<std::vector<int64_t>> ResolvedPermutation(const std::vector<int64_t>& perm, size_t rank);

// Data of dims `dims` stored densely, seen through permutation `perm`: the permuted dims, and for
// each the stride of the axis it came from. Transpose's output is a dense copy of this view.
struct PermutedView {
  std::vector<int64_t> dims;
  std::vector<int64_t> strides;
};
PermutedView PermuteDense(const std::vector<int64_t>& dims, const std::vector<int64_t>& perm);

struct TransposeEntry {
  dnnl::reorder::primitive_desc pd;
  dnnl::reorder primitive;
  dnnl::memory::desc from;
  dnnl::memory::desc to;
};

class TransposeKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info,
                                                    std::shared_ptr<const DnnlContext> dnnl);
  Status Compute(KernelContext& ctx) const override;

 private:
  TransposeKernel(std::shared_ptr<const DnnlContext> dnnl, std::vector<int64_t> perm)
      : dnnl_(std::move(dnnl)), perm_(std::move(perm)) {}

  std::shared_ptr<const DnnlContext> dnnl_;
  std::vector<int64_t> perm_;  // empty: reverse the dims
  PrimitiveCache<TransposeEntry> cache_;
};

}  // namespace onnxgate::dnnl_ep
