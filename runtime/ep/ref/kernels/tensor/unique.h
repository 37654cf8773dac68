// Unique (opset 11): the distinct elements of a tensor (flattened), or its distinct slices
// along `axis`, sorted or in order of first occurrence, with the optional outputs indices,
// inverse_indices and counts.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

struct UniqueResult {
  Tensor y;                // the distinct values or slices
  Tensor indices;          // [U] int64: where each first occurs in the input
  Tensor inverse_indices;  // [n] int64: for each input element or slice, its place in y
  Tensor counts;           // [U] int64: how often each occurs
};

// `axis` (already normalised) selects slices; nullopt flattens the input. Sorting is ascending
// and lexicographic over a slice's elements in row-major order (as numpy.unique with axis);
// NaN sorts above every number and equals NaN; complex numbers order by real, then imaginary
// part; strings by bytes.
StatusOr<UniqueResult> Unique(const Tensor& x, std::optional<int64_t> axis, bool sorted);

class UniqueKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  UniqueKernel(std::optional<int64_t> axis, bool sorted) : axis_(axis), sorted_(sorted) {}
  std::optional<int64_t> axis_;
  bool sorted_;
};

}  // namespace onnxgate::ref
