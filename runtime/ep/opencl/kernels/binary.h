// Add, Sub, Mul and Div on float32 with numpy broadcasting (cl/binary.cl).
#pragma once

#include <memory>
#include <string>

#include "runtime/ep/opencl/kernels/kernel_common.h"
#include "runtime/kernel/kernel_info.h"

namespace onnxgate::opencl_ep {

enum class BinaryOp { kAdd, kSub, kMul, kDiv };

class BinaryKernel : public OpenClKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info, BinaryOp op,
                                                    Context cl);
  Status Compute(KernelContext& ctx) const override;

 private:
  BinaryKernel(Context cl, std::string prefix)
      : OpenClKernel(std::move(cl)), prefix_(std::move(prefix)) {}

  std::string prefix_;  // "add": the kernels add_same_f32 and add_bcast_f32
};

}  // namespace onnxgate::opencl_ep
