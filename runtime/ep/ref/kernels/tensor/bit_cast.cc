// BitCast.
#include "runtime/ep/ref/kernels/tensor/bit_cast.h"

#include <cstring>
#include <string>

namespace onnxgate::ref {

StatusOr<Tensor> BitCast(const Tensor& x, DataType to) {
  if (x.dtype() == DataType::kString || to == DataType::kString) {
    return InvalidArgument("BitCast does not apply to strings");
  }
  if (DataTypeBits(x.dtype()) != DataTypeBits(to)) {
    return InvalidArgument(std::string("cannot bitcast ") + DataTypeShortName(x.dtype()) + " (" +
                           std::to_string(DataTypeBits(x.dtype())) + " bits) to " +
                           DataTypeShortName(to) + " (" + std::to_string(DataTypeBits(to)) +
                           " bits): the bit widths differ");
  }
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, NewTensor(to, x.shape()));
  // Equal bit widths give equal storage sizes, packed types included (same packing).
  ONNXGATE_CHECK(y.ByteSize() == x.ByteSize());
  if (to == DataType::kBool) {
    const auto* bytes = static_cast<const uint8_t*>(x.raw_data());
    for (size_t i = 0; i < x.ByteSize(); ++i) {
      if (bytes[i] > 1) {
        return InvalidArgument("element " + std::to_string(i) + " has the byte " +
                               std::to_string(bytes[i]) + ", which is no bool (only 0 and 1 are)");
      }
    }
  }
  if (x.ByteSize() > 0) std::memcpy(y.mutable_raw_data(), x.raw_data(), x.ByteSize());
  return y;
}

StatusOr<std::unique_ptr<OpKernel>> BitCastKernel::Create(const KernelInfo& info) {
  if (!info.has_attribute("to")) {
    return InvalidArgument("the 'to' attribute is required");
  }
  ONNXGATE_ASSIGN_OR_RETURN(int64_t to, info.GetInt("to"));
  if (to <= 0 || to > INT32_MAX || !IsValidDataType(static_cast<int32_t>(to)) ||
      to == static_cast<int64_t>(DataType::kString)) {
    return InvalidArgument("attribute 'to' " + std::to_string(to) +
                           " is not a non-string ONNX tensor element type");
  }
  return std::unique_ptr<OpKernel>(
      new BitCastKernel(static_cast<DataType>(static_cast<int32_t>(to))));
}

Status BitCastKernel::Compute(KernelContext& ctx) const {
  ONNXGATE_ASSIGN_OR_RETURN(const Tensor* x, GetInput(ctx, 0, "input"));
  ONNXGATE_ASSIGN_OR_RETURN(Tensor y, BitCast(*x, to_));
  ctx.set_output(0, std::move(y));
  return OkStatus();
}

}  // namespace onnxgate::ref
