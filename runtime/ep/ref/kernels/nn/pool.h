// Pooling: MaxPool (with the optional Indices output), AveragePool, LpPool and their Global
// forms, all one sliding-window template over any number of spatial axes.
#pragma once

#include <memory>

#include "runtime/kernel/op_kernel.h"
#include "runtime/provider/common/pool_attributes.h"

namespace onnxgate::ref {

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

}  // namespace onnxgate::ref
