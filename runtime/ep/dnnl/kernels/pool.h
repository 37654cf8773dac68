// MaxPool, AveragePool, GlobalMaxPool and GlobalAveragePool on oneDNN's pooling primitive
// (pooling_v2, which dilates), float32, over 1 to 3 spatial dims. ceil_mode becomes extra end
// padding, which oneDNN's max and padding-excluding average never count; AveragePool with both
// count_include_pad and ceil_mode pools a zero-padded copy of X (pool.cc says why). MaxPool's
// Indices output is declined at load, so that node runs on the next provider: oneDNN keeps its
// argmax in a workspace of its own layout, not as ONNX's flat indices.
#pragma once

#include <memory>

#include "runtime/ep/dnnl/dnnl_common.h"
#include "runtime/ep/dnnl/dnnl_resident.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/provider/common/conv_attributes.h"

namespace onnxgate::dnnl_ep {

enum class PoolOp { kMaxPool, kAveragePool, kGlobalMaxPool, kGlobalAveragePool };

struct PoolEntry {
  dnnl::pooling_v2_forward::primitive_desc pd;
  dnnl::pooling_v2_forward primitive;
  dnnl::memory::desc x, y;
};

class PoolKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info, PoolOp op,
                                                    std::shared_ptr<const DnnlContext> dnnl);
  Status Compute(KernelContext& ctx) const override;
  const void* resident_domain() const override { return dnnl_.get(); }

 private:
  PoolKernel(std::shared_ptr<const DnnlContext> dnnl, PoolOp op, ConvPoolAttributes attrs,
             bool count_include_pad)
      : dnnl_(std::move(dnnl)),
        op_(op),
        attrs_(std::move(attrs)),
        count_include_pad_(count_include_pad) {}
  bool global() const { return op_ == PoolOp::kGlobalMaxPool || op_ == PoolOp::kGlobalAveragePool; }
  bool max() const { return op_ == PoolOp::kMaxPool || op_ == PoolOp::kGlobalMaxPool; }

  std::shared_ptr<const DnnlContext> dnnl_;
  PoolOp op_;
  ConvPoolAttributes attrs_;
  bool count_include_pad_;
  PrimitiveCache<PoolEntry> cache_;
};

}  // namespace onnxgate::dnnl_ep
