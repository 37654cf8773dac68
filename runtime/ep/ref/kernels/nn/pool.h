// Pooling: MaxPool (with the optional Indices output), AveragePool, LpPool and their Global
// forms, all one sliding-window template over any number of spatial axes.
#pragma once

#include <memory>

#include "runtime/ep/ref/kernels/nn/conv_attributes.h"
#include "runtime/kernel/op_kernel.h"

namespace onnxgate::ref_nn {

enum class PoolKind { kMax, kAverage, kLp };

struct PoolOptions {
  PoolKind kind = PoolKind::kMax;
  bool global = false;                // the window is the whole spatial extent
  bool count_include_pad = false;     // AveragePool: divide by the padded window size
  double p = 2;                       // LpPool's exponent (a float in version 1)
  bool column_major_indices = false;  // MaxPool's storage_order = 1
};

class Pool : public OpKernel {
 public:
  Pool(const char* op, ConvPoolAttributes attrs, PoolOptions options)
      : op_(op), attrs_(std::move(attrs)), options_(options) {}
  Status Compute(KernelContext& ctx) const override;

 private:
  const char* op_;
  ConvPoolAttributes attrs_;
  PoolOptions options_;
};

// The attributes of a MaxPool or AveragePool node as its version defines them, checked: the
// window attributes (ceil_mode from 10, dilations from MaxPool-10 and AveragePool-19),
// storage_order (MaxPool-8 on, 0 or 1) and count_include_pad (AveragePool-7 on); an attribute or
// the Indices output used before its version is InvalidArgument. Every provider's pooling
// kernel reads them through this, so all refuse the same nodes in the same words.
struct WindowPoolAttributes {
  ConvPoolAttributes attrs;
  PoolOptions options;  // kind, count_include_pad, column_major_indices
};
StatusOr<WindowPoolAttributes> ParseMaxPoolAttributes(const KernelInfo& info);
StatusOr<WindowPoolAttributes> ParseAveragePoolAttributes(const KernelInfo& info);

// The factories, one per op; each reads the attributes its op version defines.
struct MaxPool {
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
};
struct AveragePool {
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
};
struct LpPool {
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
};
struct GlobalMaxPool {
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
};
struct GlobalAveragePool {
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
};
struct GlobalLpPool {
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
};

}  // namespace onnxgate::ref_nn
