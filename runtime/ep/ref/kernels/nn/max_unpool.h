// MaxUnpool: the partial inverse of MaxPool, scattering X into a zero tensor at the flat
// positions MaxPool's Indices output recorded.
#pragma once

#include <memory>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// The default output spatial dims: (in - 1) * stride + kernel - pad_begin - pad_end per axis.
StatusOr<std::vector<int64_t>> MaxUnpoolOutputDims(const std::vector<int64_t>& input_spatial,
                                                   const std::vector<int64_t>& kernel,
                                                   const std::vector<int64_t>& strides,
                                                   const std::vector<int64_t>& pads);

class MaxUnpoolKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  MaxUnpoolKernel(std::vector<int64_t> kernel, std::vector<int64_t> strides,
                  std::vector<int64_t> pads)
      : kernel_(std::move(kernel)), strides_(std::move(strides)), pads_(std::move(pads)) {}
  std::vector<int64_t> kernel_;
  std::vector<int64_t> strides_;  // empty: 1 on every axis
  std::vector<int64_t> pads_;     // empty: 0 on every axis
};

}  // namespace onnxgate::ref
