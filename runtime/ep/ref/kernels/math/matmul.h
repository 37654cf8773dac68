// MatMul: numpy.matmul semantics: batched matrix products with broadcast batch dims, and 1-D
// operands promoted to a matrix (A to a row, B to a column) whose added dim is then dropped.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/base/shape.h"
#include "runtime/kernel/kernel_info.h"
#include "runtime/kernel/op_kernel.h"
#include "runtime/provider/common/matmul_plan.h"

namespace onnxgate::ref {

class MatMul : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

}  // namespace onnxgate::ref
