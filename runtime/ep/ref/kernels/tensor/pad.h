// Pad: constant, reflect, edge and (from Pad-19) wrap padding of any rank and element type;
// negative pads crop. Pads and the constant come from attributes (Pad-1, Pad-2) or from inputs
// (Pad-11 on); Pad-18 adds the `axes` input that names the axes the pads apply to.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

enum class PadMode { kConstant, kReflect, kEdge, kWrap };

// `pads` is [x1_begin, x2_begin, ..., x1_end, x2_end, ...] with 2 * rank entries. Negative pads
// remove elements first; reflect, edge and wrap then pad the cropped tensor. `constant` (one
// element of data's type) fills constant padding; null means zero (or "" / false). InvalidArgument
// when an axis would shrink below 0 or reflect/edge/wrap has nothing to copy from.
StatusOr<Tensor> Pad(const Tensor& data, const std::vector<int64_t>& pads, PadMode mode,
                     const Tensor* constant);

class PadKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  PadKernel(int version, PadMode mode, bool from_inputs, std::vector<int64_t> pads, float value)
      : version_(version),
        mode_(mode),
        from_inputs_(from_inputs),
        pads_(std::move(pads)),
        value_(value) {}
  int version_;
  PadMode mode_;
  bool from_inputs_;           // Pad-11 on: pads and constant_value are inputs
  std::vector<int64_t> pads_;  // Pad-1 'paddings' / Pad-2 'pads'
  float value_;                // Pad-1 / Pad-2 'value'
};

}  // namespace onnxgate::ref
