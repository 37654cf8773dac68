// Optional ops: Optional (wraps a tensor or sequence, or makes an empty optional of a given
// type), OptionalHasElement and OptionalGetElement.
#pragma once

#include <memory>

#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

class OptionalKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  // `kind` / `elem_type`: what the `type` attribute declares (kNone when it is absent).
  OptionalKernel(Value::Kind kind, DataType elem_type) : kind_(kind), elem_type_(elem_type) {}
  Value::Kind kind_;
  DataType elem_type_;
};

// Version 15 takes an optional. A plain tensor or sequence (which counts as present) and an
// omitted input (absent) are accepted too, as later versions of the op define them: values
// that flow through Loop and If change between optional and plain forms.
class OptionalHasElementKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

// The value an optional holds (an error for an empty one); plain tensors and sequences pass
// through unchanged, for the same reason as above.
class OptionalGetElementKernel : public OpKernel {
 public:
  Status Compute(KernelContext& ctx) const override;
};

}  // namespace onnxgate::ref
