// ReduceSum and ReduceMean on float32 (cl/reduce.cl). Axes come from the `axes` attribute
// (ReduceSum 1 to 12, ReduceMean 1 to 17) or from the optional `axes` input (ReduceSum from 13,
// ReduceMean from 18, which also have noop_with_empty_axes); negative axes from version 11.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "runtime/ep/opencl/kernels/kernel_common.h"
#include "runtime/kernel/kernel_info.h"

namespace onnxgate::opencl_ep {

enum class ReduceOp { kSum, kMean };

class ReduceKernel : public OpenClKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info, ReduceOp op,
                                                    Context cl);
  Status Compute(KernelContext& ctx) const override;

 private:
  struct Options {
    bool mean = false;
    bool keepdims = true;
    bool allow_negative_axes = true;
    std::optional<std::vector<int64_t>> axes;  // the attribute form (absent or empty: all)
    bool axes_input = false;                   // axes arrive as the optional second input
    bool noop_with_empty_axes = false;
  };
  ReduceKernel(Context cl, Options options)
      : OpenClKernel(std::move(cl)), options_(std::move(options)) {}

  Options options_;
};

}  // namespace onnxgate::opencl_ep
