// Optional ops: Optional (wraps a tensor or sequence, or makes an empty optional of a given
// type), OptionalHasElement and OptionalGetElement.
#pragma once

#include <memory>

#include "runtime/ep/ref/kernels/common/kernel_util.h"

namespace onnxgate::ref {

class OptionalKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  // `kind` / `elem_type`: what the `type` attribute declares (kNone when it is absent).
  OptionalKernel(const KernelInfo& info, Value::Kind kind, DataType elem_type)
      : RefKernel(info), kind_(kind), elem_type_(elem_type) {}
  Value::Kind kind_;
  DataType elem_type_;
};

// Version 15 takes an optional. A plain tensor or sequence (which counts as present) and an
// omitted input (absent) are accepted too, as later versions of the op define them: values
// that flow through Loop and If change between optional and plain forms.
class OptionalHasElementKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  using RefKernel::RefKernel;
};

// The value an optional holds (an error for an empty one); plain tensors and sequences pass
// through unchanged, for the same reason as above.
class OptionalGetElementKernel : public RefKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);

 protected:
  Status Run(KernelContext& ctx) const override;

 private:
  using RefKernel::RefKernel;
};

}  // namespace onnxgate::ref
