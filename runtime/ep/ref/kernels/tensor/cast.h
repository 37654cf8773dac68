// Cast and CastLike: element type conversion between every numeric type, bool, float16,
// bfloat16, the 8-bit floats, FLOAT4E2M1, the packed sub-byte integers and string.
#pragma once

#include <memory>

#include "runtime/base/tensor.h"
#include "runtime/provider/common/kernel_util.h"

namespace onnxgate::ref {

// The attributes of Cast-19 and later that shape conversions to the 8-bit floats.
struct CastOptions {
  // FLOAT8* targets: out-of-range values and infinities become +-max (true) or follow the
  // non-saturating table of the Cast spec (false). See data_type.h for each type.
  bool saturate = true;
  // FLOAT8E8M0 targets (Cast-24 on): how a value between two powers of two is rounded.
  E8M0Rounding round_mode = E8M0Rounding::kUp;
};

// Converts every element of `x` to `to`:
// - float -> integer of 8 bits or more truncates toward zero; NaN gives 0 and out-of-range
//   values saturate (ONNX leaves both undefined);
// - integer -> narrower integer wraps in two's complement (as C and numpy);
// - anything -> INT4/UINT4/INT2/UINT2 keeps the low bits of the integer (wraps, as ONNX's
//   reference does); a float is first truncated toward zero, NaN and infinities give 0;
// - anything -> bool is "!= 0" (NaN is true); bool -> number is 0 or 1;
// - to float16/bfloat16 rounds to nearest even, once;
// - to the 8-bit floats and FLOAT4E2M1 rounds to nearest even, once (wider values are first
//   rounded to float "to odd", which keeps the second rounding exact), and follows the
//   saturation rules of `options` (FLOAT4E2M1 always saturates, its NaN gives 0);
// - to FLOAT8E8M0 rounds as `options.round_mode` says; the sign of a negative value is dropped;
// - number -> string and string -> number as in cast_string.h (the 8-bit and 4-bit floats are
//   written with the shortest digits that read back as the same float).
// Unimplemented for complex types; InvalidArgument for text that is not a number.
StatusOr<Tensor> CastTensor(const Tensor& x, DataType to, const CastOptions& options = {});

class CastKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  CastKernel(DataType to, CastOptions options) : to_(to), options_(options) {}
  DataType to_;
  CastOptions options_;
};

// CastLike: Cast to the element type of the second input (saturate from 19, round_mode from 24).
class CastLikeKernel : public OpKernel {
 public:
  static StatusOr<std::unique_ptr<OpKernel>> Create(const KernelInfo& info);
  Status Compute(KernelContext& ctx) const override;

 private:
  explicit CastLikeKernel(CastOptions options) : options_(options) {}
  CastOptions options_;
};

}  // namespace onnxgate::ref
