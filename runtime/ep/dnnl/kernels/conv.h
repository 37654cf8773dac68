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
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/provider/common/conv_attributes.h"

namespace onnxgate::dnnl_ep {

// The primitive of one X shape and layout (and W shape), with the reorders in front of it.
struct ConvEntry {
  dnnl::convolution_forward::primitive_desc pd;
  dnnl::convolution_forward primitive;
  dnnl::memory::desc x_desc, w_plain, b_plain;
  // Present where oneDNN's chosen layout differs from the one X comes in, or from W's plain one.
  std::optional<dnnl::reorder> x_reorder, w_reorder;
  std::optional<dnnl::reorder::primitive_desc> x_reorder_pd, w_reorder_pd;
  // With a residual: the reorder of R into Y's layout, absent when R is in it already.
  std::optional<dnnl::reorder> r_reorder;
  std::optional<dnnl::reorder::primitive_desc> r_reorder_pd;
  // The constant W in the primitive's layout, reordered when the entry was made.
  std::optional<dnnl::memory> w_constant;
};

// The Add of a residual connection that follows a Conv in dnnl's Conv + Add claim
// (conv_fusion.h): Y = Conv(X, W, B) + R, R being the kernel's input 3, with the claim's
// activation (if any) applied to the sum.
struct ConvResidual {
  bool r_first = false;  // the node is Add(R, conv) rather than Add(conv, R)
  // The claim's nodes as kernels of their own (activation: null when there is none), for a run
  // whose R is not of Y's shape (the Add broadcasts it) or whose Y is empty.
  std::unique_ptr<OpKernel> conv, add, activation;
};

// With `activation` (the steps of a Relu, LeakyRelu or Clip that reads Y alone: dnnl's subgraph
// claim, conv_fusion.h), Y is the activation of the convolution, applied by oneDNN as a post-op
// as each output block is written. oneDNN's relu and clip turn a NaN into a number where ONNX
// keeps it, so a run whose X, W or B holds a NaN or an infinity (the only ways to a NaN sum)
// convolves first and applies the activation as the Relu or Clip node would.
//
// With `residual`, R is copied into Y's memory in the primitive's layout and the convolution
// adds onto it (oneDNN's sum post-op, before the activation), instead of an Add primitive and
// its pass over both tensors; an R holding a NaN or an infinity keeps the activation unfused.
class ConvKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info,
                                                    std::shared_ptr<const DnnlContext> dnnl,
                                                    std::vector<EltwiseStep> activation = {},
                                                    std::optional<ConvResidual> residual = {});
  Status Compute(KernelContext& ctx) const override;
  const void* resident_domain() const override { return dnnl_.get(); }

 private:
  ConvKernel(std::shared_ptr<const DnnlContext> dnnl, ConvPoolAttributes attrs, int64_t group,
             std::optional<Tensor> w_constant, bool w_constant_finite,
             std::vector<EltwiseStep> activation, std::optional<ConvResidual> residual)
      : dnnl_(std::move(dnnl)),
        attrs_(std::move(attrs)),
        group_(group),
        w_constant_(std::move(w_constant)),
        w_constant_finite_(w_constant_finite),
        activation_(std::move(activation)),
        residual_(std::move(residual)) {}
  // The claim's nodes one after the other (ConvResidual's kernels).
  Status ComputeSeparately(KernelContext& ctx) const;

  std::shared_ptr<const DnnlContext> dnnl_;
  ConvPoolAttributes attrs_;
  int64_t group_;
  std::optional<Tensor> w_constant_;  // shares the constant's storage
  bool w_constant_finite_;            // no NaN or infinity in it
  std::vector<EltwiseStep> activation_;
  std::optional<ConvResidual> residual_;
  PrimitiveCache<ConvEntry> cache_;
  PrimitiveCache<EltwiseEntry> activation_cache_;  // for runs that cannot fuse it
};

}  // namespace onnxgate::dnnl_ep
