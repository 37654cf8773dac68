// CenterCropPad (opset 18): crops or zero-pads chosen axes of a tensor to target sizes, keeping
// the content centred.
#pragma once

#include <memory>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// Axis axes[i] (normalised, distinct) of the result has size shape[i]. A shorter axis keeps
// the window starting at floor((in - size) / 2); a longer one places the input at
// floor((size - in) / 2), the rest zero (false, "" for non-numeric types). Any element type.
StatusOr<Tensor> CenterCropPad(const Tensor& input, const std::vector<int64_t>& shape,
                               const std::vector<int64_t>& axes);

class CenterCropPadKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit CenterCropPadKernel(std::vector<int64_t> axes) : axes_(std::move(axes)) {}
  std::vector<int64_t> axes_;  // as given; empty: every axis
};

}  // namespace onnxgate::ref
