// Conversions between ONNX's TensorProto / SequenceProto / OptionalProto and Value, for every
// ONNX tensor type (raw_data and the typed fields; float16/bfloat16 bits, float8 codes and packed
// sub-byte bytes in int32_data as ONNX stores them). This is the one place where ONNX protobuf
// tensors are turned into onnxgate tensors.
#pragma once

#include <string>

#include "runtime/base/status.h"
#include "runtime/base/value.h"

namespace onnx {
class TensorProto;
class SequenceProto;
class OptionalProto;
}  // namespace onnx

namespace onnxgate {

class ContainedDir;

// `base_dir` is the folder against which external data locations resolve (the model's folder);
// when empty, a tensor with external data is refused. Errors name the tensor and what is wrong:
// size of data not matching the shape, unknown data type, dims that overflow, bad location.
// External data is read as ReadExternalData (runtime/proto/external_data.h) reads it.
StatusOr<Tensor> TensorFromProto(const onnx::TensorProto& proto, const std::string& base_dir = "");
// The same with external data resolved beneath a folder already open.
StatusOr<Tensor> TensorFromProto(const onnx::TensorProto& proto, const ContainedDir& base_dir);
StatusOr<Value> ValueFromSequenceProto(const onnx::SequenceProto& proto);
StatusOr<Value> ValueFromOptionalProto(const onnx::OptionalProto& proto);

// Parses a serialized TensorProto, SequenceProto or OptionalProto (ONNX test data, input_0.pb) as
// the kind `kind_hint` says ("tensor", "sequence", "optional"); `source` names it in messages
// (DataLoss when it does not parse). A tensor's external data resolves beneath
// `external_data_dir`; with none, it is refused.
StatusOr<Value> ParseValueProto(const std::string& bytes, const std::string& kind_hint,
                                const std::string& source, const ContainedDir* external_data_dir);

// ParseValueProto of a file the caller names (symbolic links followed): it must be a regular file
// of at most kMaxProtobufFileBytes; external data resolves beneath the file's folder.
StatusOr<Value> ReadValueProtoFile(const std::string& path, const std::string& kind_hint);

// Which TensorProto field TensorToProto fills for non-string tensors.
enum class TensorProtoStorage {
  kRawData,     // raw_data: little-endian elements; INT4/UINT4/FLOAT4E2M1 two per byte (element
                // 2k in the low nibble), INT2/UINT2 four per byte (element 4k in bits 0-1)
  kTypedField,  // float_data / double_data / int64_data / uint64_data / int32_data as ONNX
                // assigns them; float16/bfloat16 bits and float8 codes one per int32, sub-byte
                // types one packed byte (raw_data's packing) per int32
};

// STRING tensors always go to string_data.
onnx::TensorProto TensorToProto(const Tensor& tensor, const std::string& name,
                                TensorProtoStorage storage = TensorProtoStorage::kRawData);

// A Value as ONNX test data stores it, the inverse of ParseValueProto: a serialized TensorProto,
// SequenceProto or OptionalProto; `kind` gets "tensor", "sequence" or "optional".
std::string SerializeValueProto(const Value& value, const std::string& name, std::string* kind);

}  // namespace onnxgate
