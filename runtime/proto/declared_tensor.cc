// The declared element type, shape and raw storage size of a TensorProto.
#include "runtime/proto/declared_tensor.h"

#include <onnx/onnx_pb.h>

#include <vector>

namespace onnxgate {

std::string TensorLabel(const onnx::TensorProto& proto) {
  return proto.name().empty() ? std::string("unnamed tensor") : "tensor '" + proto.name() + "'";
}

StatusOr<DeclaredTensor> DeclaredTensorOf(const onnx::TensorProto& proto) {
  const std::string label = TensorLabel(proto);
  if (proto.has_data_type() && (proto.data_type() == onnx::TensorProto::FLOAT6E2M3 ||
                                proto.data_type() == onnx::TensorProto::FLOAT6E3M2)) {
    return Unimplemented(label + ": data_type " + std::to_string(proto.data_type()) + " (" +
                         onnx::TensorProto::DataType_Name(
                             static_cast<onnx::TensorProto::DataType>(proto.data_type())) +
                         ") is not supported by onnxgate");
  }
  if (!proto.has_data_type() || !IsValidDataType(proto.data_type())) {
    return InvalidArgument(label + ": unknown or undefined data_type " +
                           std::to_string(proto.data_type()));
  }
  DeclaredTensor d;
  d.type = static_cast<DataType>(proto.data_type());
  d.shape = Shape(std::vector<int64_t>(proto.dims().begin(), proto.dims().end()));
  Status valid = d.shape.Validate(kMaxTensorElements);
  if (!valid.ok()) return InvalidArgument(label + ": bad dims: " + valid.message());
  d.storage_bytes = DataTypeStorageBytes(d.type, d.shape.NumElements());
  return d;
}

std::string StorageNeeds(const DeclaredTensor& d) {
  std::string packing;
  if (IsPackedSubByte(d.type)) {
    packing = " (" + std::to_string(8 / DataTypeBits(d.type)) + " elements per byte)";
  }
  return std::string(DataTypeName(d.type)) + d.shape.ToString() + " needs " +
         std::to_string(d.storage_bytes) + packing;
}

}  // namespace onnxgate
