// ConvTranspose (versions 11 to 22) on oneDNN's deconvolution primitive, float32: 1 to 3 spatial
// dims, groups, dilations, pads, strides, auto_pad, output_padding, output_shape and an optional
// bias. The attributes, the shape checks and the geometry are ref's (conv_transpose.h there), so
// both providers validate a node alike. Layouts as Conv's (conv.h): X is taken in the layout it
// comes in, Y is left in the primitive's layout (resident, dnnl_resident.h), and a constant W (an
// initializer or Constant) is reordered once per input shape and kept with the primitive.
// ONNX's W [C, M / group, kernel...] is oneDNN's weights [group, M / group, C / group, kernel...]
// described by strides (oneDNN's giohw family), with no copy.
// oneDNN's deconvolution takes a begin pad >= 0 and an end pad > -stride (output_padding is
// taken off the end pad). Where auto_pad or output_shape ask for a Y reaching further than that
// (negative pads: output the kernel never touches), the primitive computes the part of Y it
// reaches, which is copied into a plain Y holding the bias (or zero) everywhere else.
// Declined at load: more than 3 spatial dims where an attribute or a constant W shows it.
#pragma once

#include <memory>
#include <optional>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/ep/dnnl/dnnl_resident.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/provider/common/conv_transpose_attributes.h"

namespace onnxgate::dnnl_ep {

// The primitive of one X shape and layout (and W shape), with the reorders around it.
struct ConvTransposeEntry {
  dnnl::deconvolution_forward::primitive_desc pd;
  dnnl::deconvolution_forward primitive;
  dnnl::memory::desc x_desc, w_plain, b_plain;
  // Present where oneDNN's chosen layout differs from the one X comes in, or from W's plain one.
  std::optional<dnnl::reorder> x_reorder, w_reorder;
  std::optional<dnnl::reorder::primitive_desc> x_reorder_pd, w_reorder_pd;
  // The constant W in the primitive's layout, reordered when the entry was made.
  std::optional<dnnl::memory> w_constant;
  // Where the primitive computes a part of Y: the copy of its dst into that part of a plain Y.
  std::optional<dnnl::reorder> part_reorder;
  std::optional<dnnl::reorder::primitive_desc> part_reorder_pd;
  dnnl::memory::desc y_part;  // the part of the plain Y (offset and strides of the whole)
};

class ConvTransposeKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info,
                                                    std::shared_ptr<const DnnlContext> dnnl);
  Status Compute(KernelContext& ctx) const override;
  const void* resident_domain() const override { return dnnl_.get(); }

 private:
  ConvTransposeKernel(std::shared_ptr<const DnnlContext> dnnl, ConvTransposeAttributes attrs,
                      std::optional<Tensor> w_constant)
      : dnnl_(std::move(dnnl)), attrs_(std::move(attrs)), w_constant_(std::move(w_constant)) {}

  std::shared_ptr<const DnnlContext> dnnl_;
  ConvTransposeAttributes attrs_;
  std::optional<Tensor> w_constant_;  // shares the constant's storage
  PrimitiveCache<ConvTransposeEntry> cache_;
};

}  // namespace onnxgate::dnnl_ep
