// Conv (versions 11 to 22) on oneDNN's convolution primitive, float32: 1 to 3 spatial dims,
// groups (depthwise included), dilations, pads, strides, auto_pad and an optional bias. oneDNN
// picks the layouts it runs fastest in; activations are reordered from and to ONNX's plain
// layout around it, and a constant W (an initializer or Constant) is reordered once per input
// shape and kept with the primitive.
#pragma once

#include <memory>
#include <optional>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/ep/ref/kernels/nn/conv_attributes.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::dnnl_ep {

// The primitive of one X shape (and W shape), with the reorders around it.
struct ConvEntry {
  dnnl::convolution_forward::primitive_desc pd;
  dnnl::convolution_forward primitive;
  dnnl::memory::desc x_plain, w_plain, b_plain, y_plain;
  // Present where oneDNN's chosen layout differs from the plain one.
  std::optional<dnnl::reorder> x_reorder, w_reorder, y_reorder;
  std::optional<dnnl::reorder::primitive_desc> x_reorder_pd, w_reorder_pd, y_reorder_pd;
  // The constant W in the primitive's layout, reordered when the entry was made.
  std::optional<dnnl::memory> w_constant;
};

class ConvKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info,
                                                    std::shared_ptr<const DnnlContext> dnnl);
  Status Compute(KernelContext& ctx) const override;

 private:
  ConvKernel(std::shared_ptr<const DnnlContext> dnnl, ref_nn::ConvPoolAttributes attrs,
             int64_t group, std::optional<Tensor> w_constant)
      : dnnl_(std::move(dnnl)),
        attrs_(std::move(attrs)),
        group_(group),
        w_constant_(std::move(w_constant)) {}

  std::shared_ptr<const DnnlContext> dnnl_;
  ref_nn::ConvPoolAttributes attrs_;
  int64_t group_;
  std::optional<Tensor> w_constant_;  // shares the constant's storage
  PrimitiveCache<ConvEntry> cache_;
};

}  // namespace onnxgate::dnnl_ep
