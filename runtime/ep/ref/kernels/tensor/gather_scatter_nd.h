// GatherND (batch_dims from opset 12) and ScatterND (reduction from opset 16): indexing by
// tuples of leading coordinates, each tuple addressing one element or one trailing slice.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/ep/ref/kernels/tensor/gather_scatter_elements.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// Output shape indices.shape[:-1] + data.shape[batch_dims + k:] with k = indices.shape[-1];
// the first batch_dims dims of data and indices must agree, and each k-tuple (negative entries
// count from the end) picks a slice within its batch.
StatusOr<Tensor> GatherND(const Tensor& data, const Tensor& indices, int64_t batch_dims);

// A copy of data where each k-tuple of indices addresses the slice data[tuple] that the
// matching slice of updates (shape indices.shape[:-1] + data.shape[k:]) replaces or is combined
// into, tuples taken in row-major order.
StatusOr<Tensor> ScatterND(const Tensor& data, const Tensor& indices, const Tensor& updates,
                           ScatterReduction reduction);

class GatherNDKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit GatherNDKernel(int64_t batch_dims) : batch_dims_(batch_dims) {}
  int64_t batch_dims_;
};

class ScatterNDKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit ScatterNDKernel(ScatterReduction reduction) : reduction_(reduction) {}
  ScatterReduction reduction_;
};

}  // namespace onnxgate::ref
