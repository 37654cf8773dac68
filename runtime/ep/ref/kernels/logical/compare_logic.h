// Comparisons (Equal, Less, Greater, LessOrEqual, GreaterOrEqual) and boolean logic (And, Or,
// Xor, Not): elementwise ops with numpy broadcasting (legacy broadcast before opset 7).
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/broadcast.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

enum class CompareOp { kEqual, kLess, kGreater, kLessOrEqual, kGreaterOrEqual };
enum class LogicOp { kAnd, kOr, kXor };

// bool tensor of a (op) b with numpy broadcasting; a and b share a numeric or bool type, or
// are strings (kEqual only: byte-wise equality). Comparisons with NaN are false (Equal(NaN, NaN)
// too), as IEEE and numpy.
StatusOr<Tensor> Compare(CompareOp op, const Tensor& a, const Tensor& b);
// bool tensor of a (op) b for bool a and b, with numpy broadcasting.
StatusOr<Tensor> Logic(LogicOp op, const Tensor& a, const Tensor& b);
StatusOr<Tensor> LogicalNot(const Tensor& x);

template <CompareOp kOp>
class CompareKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit CompareKernel(LegacyBroadcast legacy) : legacy_(legacy) {}
  LegacyBroadcast legacy_;
};

template <LogicOp kOp>
class LogicKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit LogicKernel(LegacyBroadcast legacy) : legacy_(legacy) {}
  LegacyBroadcast legacy_;
};

class NotKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

}  // namespace onnxgate::ref
