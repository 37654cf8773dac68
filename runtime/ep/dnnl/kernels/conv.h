// Conv (versions 11 to 22) on oneDNN's convolution primitive, float32: 1 to 3 spatial dims,
// groups (depthwise included), dilations, pads, strides, auto_pad and an optional bias. oneDNN
// picks the layouts it runs fastest in: X is taken in the layout it comes in (a resident tensor
// of an earlier dnnl kernel, or a plain host tensor) and reordered only where that is not the
// primitive's, Y is left in the primitive's layout (resident, dnnl_resident.h), and a constant W
// (an initializer or Constant) is reordered once per input shape and kept with the primitive.
#pragma once

#include <memory>
#include <optional>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/ep/dnnl/dnnl_resident.h"
#include "runtime/ep/dnnl/kernels/eltwise.h"
#include "runtime/ep/ref/kernels/nn/conv_attributes.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::dnnl_ep {

// The primitive of one X shape and layout (and W shape), with the reorders in front of it.
struct ConvEntry {
  dnnl::convolution_forward::primitive_desc pd;
  dnnl::convolution_forward primitive;
  dnnl::memory::desc x_desc, w_plain, b_plain;
  // Present where oneDNN's chosen layout differs from the one X comes in, or from W's plain one.
  std::optional<dnnl::reorder> x_reorder, w_reorder;
  std::optional<dnnl::reorder::primitive_desc> x_reorder_pd, w_reorder_pd;
  // The constant W in the primitive's layout, reordered when the entry was made.
  std::optional<dnnl::memory> w_constant;
};

// With `activation` (the steps of a Relu, LeakyRelu or Clip that reads Y alone: dnnl's subgraph
// claim, conv_fusion.h), Y is the activation of the convolution, applied by oneDNN as a post-op
// as each output block is written. oneDNN's relu and clip turn a NaN into a number where ONNX
// keeps it, so a run whose X, W or B holds a NaN or an infinity (the only ways to a NaN sum)
// convolves first and applies the activation as the Relu or Clip node would.
class ConvKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info,
                                                    std::shared_ptr<const DnnlContext> dnnl,
                                                    std::vector<EltwiseStep> activation = {});
  Status Compute(KernelContext& ctx) const override;
  const void* resident_domain() const override { return dnnl_.get(); }

 private:
  ConvKernel(std::shared_ptr<const DnnlContext> dnnl, ref_nn::ConvPoolAttributes attrs,
             int64_t group, std::optional<Tensor> w_constant, bool w_constant_finite,
             std::vector<EltwiseStep> activation)
      : dnnl_(std::move(dnnl)),
        attrs_(std::move(attrs)),
        group_(group),
        w_constant_(std::move(w_constant)),
        w_constant_finite_(w_constant_finite),
        activation_(std::move(activation)) {}

  std::shared_ptr<const DnnlContext> dnnl_;
  ref_nn::ConvPoolAttributes attrs_;
  int64_t group_;
  std::optional<Tensor> w_constant_;  // shares the constant's storage
  bool w_constant_finite_;            // no NaN or infinity in it
  std::vector<EltwiseStep> activation_;
  PrimitiveCache<ConvEntry> cache_;
  PrimitiveCache<EltwiseEntry> activation_cache_;  // for runs that cannot fuse it
};

}  // namespace onnxgate::dnnl_ep
