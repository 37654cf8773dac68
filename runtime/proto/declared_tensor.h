// What a TensorProto declares about its data, checked once for every reader: the element type
// (known to onnxgate), the shape (no negative dims, no element count near overflow) and the bytes
// of raw storage (raw_data or external data) they take. TensorFromProto and the external-data
// reader share it, so a byte count is compared with the declaration before anything is read or
// allocated, and both refuse the same declarations with the same words.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/base/data_type.h"
#include "runtime/base/shape.h"
#include "runtime/base/status.h"

namespace onnx {
class TensorProto;
}

namespace onnxgate {

// Keeps element count * element size (at most 16 bytes) far from int64 overflow.
inline constexpr int64_t kMaxTensorElements = INT64_MAX / 32;

struct DeclaredTensor {
  DataType type = DataType::kUndefined;
  Shape shape;
  uint64_t storage_bytes = 0;  // raw storage for shape x type; 0 for STRING (no raw storage)
};

// "tensor 'W'", or "unnamed tensor".
std::string TensorLabel(const onnx::TensorProto& proto);

// Unimplemented for FLOAT6E2M3/FLOAT6E3M2; InvalidArgument for an unknown or undefined data_type
// and for bad dims. Messages start with TensorLabel.
StatusOr<DeclaredTensor> DeclaredTensorOf(const onnx::TensorProto& proto);

// "FLOAT[3] needs 12", "INT4[33] needs 17 (2 elements per byte)": the tail of size mismatches.
std::string StorageNeeds(const DeclaredTensor& declared);

}  // namespace onnxgate
