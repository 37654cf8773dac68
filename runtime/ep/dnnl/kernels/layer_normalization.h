// LayerNormalization-17 on oneDNN's layer_normalization primitive, float32: X seen as
// [outer, block] with block the product of X.shape[axis:], oneDNN normalizing over the block.
// Scale and B go to the primitive (use_scale, use_shift) when they broadcast to the same values
// for every leading index, the usual case; otherwise the primitive normalizes alone and they are
// applied afterwards with their full broadcast. Mean and InvStdDev, when the node asks for them,
// come from the primitive's statistics (forward_training); InvStdDev = 1 / sqrt(variance +
// epsilon). stash_type other than float (bfloat16 statistics) is declined at load.
#pragma once

#include <memory>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::dnnl_ep {

struct LayerNormalizationEntry {
  dnnl::primitive_desc_base pd;
  dnnl::primitive primitive;
  dnnl::memory::desc data;
  dnnl::memory::desc stats;
  dnnl::memory::desc block;  // Scale and B as the primitive takes them
};

class LayerNormalizationKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info,
                                                    std::shared_ptr<const DnnlContext> dnnl);
  Status Compute(KernelContext& ctx) const override;

 private:
  LayerNormalizationKernel(std::shared_ptr<const DnnlContext> dnnl, int64_t axis, float epsilon,
                           bool statistics)
      : dnnl_(std::move(dnnl)), axis_(axis), epsilon_(epsilon), statistics_(statistics) {}

  std::shared_ptr<const DnnlContext> dnnl_;
  int64_t axis_;
  float epsilon_;
  bool statistics_;  // the node asks for Mean or InvStdDev
  PrimitiveCache<LayerNormalizationEntry> cache_;
};

}  // namespace onnxgate::dnnl_ep
