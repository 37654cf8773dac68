// Range: the 1-D sequence start, start + delta, ... stopping before limit.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

// start, limit and delta are one-element tensors of one type (float, double, int16, int32,
// int64). The length is max(ceil((limit - start) / delta), 0), exactly for integers and in
// double for floats; element i is start + i * delta. InvalidArgument for delta 0.
StatusOr<Tensor> Range(const Tensor& start, const Tensor& limit, const Tensor& delta);

class RangeKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  using RefKernel::RefKernel;
  Status Run(KernelContext& ctx) const override;
};

}  // namespace onnxgate::ref
