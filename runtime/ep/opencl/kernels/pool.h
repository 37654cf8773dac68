// MaxPool, AveragePool, GlobalMaxPool and GlobalAveragePool on float32 (cl/pool.cl), over any
// number of spatial axes: kernel_shape, pads, auto_pad, strides, dilations (MaxPool from 10,
// AveragePool from 19), ceil_mode (from 10) and count_include_pad (AveragePool from 7), read and
// resolved with the ref EP's helpers. Declined at load: MaxPool's Indices output (the kernel
// keeps no argmax), so the node runs on ref.
#pragma once

#include <memory>

#include "runtime/ep/opencl/kernels/kernel_common.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/provider/common/conv_attributes.h"

namespace onnxgate::opencl_ep {

enum class PoolOp { kMaxPool, kAveragePool, kGlobalMaxPool, kGlobalAveragePool };

class PoolKernel : public OpenClKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info, PoolOp op, Context cl);
  Status Compute(KernelContext& ctx) const override;

 private:
  PoolKernel(Context cl, PoolOp op, ConvPoolAttributes attrs, bool count_include_pad)
      : OpenClKernel(std::move(cl)),
        op_(op),
        attrs_(std::move(attrs)),
        count_include_pad_(count_include_pad) {}

  bool global() const { return op_ == PoolOp::kGlobalMaxPool || op_ == PoolOp::kGlobalAveragePool; }
  bool average() const { return op_ == PoolOp::kAveragePool || op_ == PoolOp::kGlobalAveragePool; }
  const char* name() const;

  PoolOp op_;
  ConvPoolAttributes attrs_;
  bool count_include_pad_;
};

}  // namespace onnxgate::opencl_ep
