// TensorProto / SequenceProto / OptionalProto <-> Value: every ONNX tensor type, raw_data and the
// typed fields, with the element count checked against the declared shape before any allocation.
// The sub-byte types are packed in raw_data and int32_data alike (one packed byte per int32).
#include "runtime/proto/tensor_proto.h"

#include <onnx/onnx-data.pb.h>
#include <onnx/onnx_pb.h>

#include <cstring>
#include <functional>
#include <limits>

#include "runtime/base/contained_file.h"
#include "runtime/proto/declared_tensor.h"
#include "runtime/proto/external_data.h"

// raw_data is little-endian by definition; the copies below are plain memcpy.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "onnxgate reads ONNX raw_data with memcpy and needs a little-endian host"
#endif

namespace onnxgate {

namespace {

// The typed field ONNX uses for each element type.
const char* TypedFieldFor(DataType type) {
  switch (type) {
    case DataType::kFloat:
    case DataType::kComplex64: return "float_data";
    case DataType::kDouble:
    case DataType::kComplex128: return "double_data";
    case DataType::kInt64: return "int64_data";
    case DataType::kUint32:
    case DataType::kUint64: return "uint64_data";
    case DataType::kString: return "string_data";
    default: return "int32_data";  // int8/16/32, uint8/16, bool, float16, bfloat16
  }
}

// The non-empty typed fields of `proto`, by name.
std::vector<std::string> NonEmptyTypedFields(const onnx::TensorProto& proto) {
  std::vector<std::string> fields;
  if (proto.float_data_size() > 0) fields.push_back("float_data");
  if (proto.int32_data_size() > 0) fields.push_back("int32_data");
  if (proto.string_data_size() > 0) fields.push_back("string_data");
  if (proto.int64_data_size() > 0) fields.push_back("int64_data");
  if (proto.double_data_size() > 0) fields.push_back("double_data");
  if (proto.uint64_data_size() > 0) fields.push_back("uint64_data");
  return fields;
}

Status CountMismatch(const std::string& label, const char* field, int64_t got, int64_t expected,
                     const Shape& shape) {
  return InvalidArgument(label + ": " + field + " holds " + std::to_string(got) +
                         " values but shape " + shape.ToString() + " needs " +
                         std::to_string(expected));
}

// Copies bytes into a tensor of the declared type and shape after checking the byte count.
StatusOr<Tensor> FromRawBytes(const std::string& label, const DeclaredTensor& declared,
                              const std::string& bytes, const char* source) {
  const DataType type = declared.type;
  const Shape& shape = declared.shape;
  if (type == DataType::kString) {
    return InvalidArgument(label + ": STRING tensors keep their data in string_data, not " +
                           source);
  }
  int64_t n = shape.NumElements();
  int64_t expected = static_cast<int64_t>(declared.storage_bytes);
  if (static_cast<int64_t>(bytes.size()) != expected) {
    return InvalidArgument(label + ": " + source + " has " + std::to_string(bytes.size()) +
                           " bytes but " + StorageNeeds(declared));
  }
  // Every storage byte is written below (the bytes are exactly the storage), so none is cleared
  // first: a model's weights are loaded without a pass that only zeroes them.
  Tensor t = Tensor::Uninitialized(type, shape);
  if (type == DataType::kBool) {
    // A bool byte other than 0 or 1 is not a valid C++ bool; refuse rather than reinterpret.
    bool* out = t.mutable_data<bool>();
    for (int64_t i = 0; i < n; ++i) {
      unsigned char b = static_cast<unsigned char>(bytes[i]);
      if (b > 1) {
        return InvalidArgument(label + ": BOOL element " + std::to_string(i) + " has byte value " +
                               std::to_string(b) + " in " + source + "; expected 0 or 1");
      }
      out[i] = b == 1;
    }
  } else if (expected > 0) {
    std::memcpy(t.mutable_raw_data(), bytes.data(), bytes.size());
    // Bits after the last element mean nothing; zero them so equal tensors have equal bytes.
    if (IsPackedSubByte(type)) ClearPackedPadding(type, t.mutable_raw_data(), n);
  }
  return t;
}

// int32_data -> bytes: one byte per int32, each in [0, 255] (float8 codes, packed sub-byte bytes).
Status FillBytesFromInt32(const std::string& label, DataType type, const onnx::TensorProto& proto,
                          uint8_t* out) {
  for (int i = 0; i < proto.int32_data_size(); ++i) {
    int64_t v = proto.int32_data(i);
    if (v < 0 || v > 255) {
      return InvalidArgument(label + ": int32_data[" + std::to_string(i) +
                             "] = " + std::to_string(v) + " does not hold " +
                             (IsPackedSubByte(type) ? "a packed byte" : "the 8 bits") + " of " +
                             DataTypeName(type) + " (expected 0..255)");
    }
    out[i] = static_cast<uint8_t>(v);
  }
  return OkStatus();
}

// int32_data -> narrower integers, with each value range-checked.
template <typename T>
Status FillFromInt32(const std::string& label, DataType type, const onnx::TensorProto& proto,
                     int64_t lo, int64_t hi, T* out) {
  for (int i = 0; i < proto.int32_data_size(); ++i) {
    int64_t v = proto.int32_data(i);
    if (v < lo || v > hi) {
      return InvalidArgument(label + ": int32_data[" + std::to_string(i) + "] = " +
                             std::to_string(v) + " is out of range for " + DataTypeName(type) +
                             " [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }
    out[i] = static_cast<T>(v);
  }
  return OkStatus();
}

// Converts the one typed field that holds the data of a `type` tensor.
StatusOr<Tensor> FromTypedField(const std::string& label, DataType type, const Shape& shape,
                                const onnx::TensorProto& proto) {
  const int64_t n = shape.NumElements();
  const char* field = TypedFieldFor(type);
  int64_t got = 0;
  // Packed types keep one packed byte per int32: two 4-bit or four 2-bit elements.
  int64_t expected = IsComplex(type)         ? 2 * n
                     : IsPackedSubByte(type) ? static_cast<int64_t>(DataTypeStorageBytes(type, n))
                                             : n;
  switch (type) {
    case DataType::kFloat:
    case DataType::kComplex64: got = proto.float_data_size(); break;
    case DataType::kDouble:
    case DataType::kComplex128: got = proto.double_data_size(); break;
    case DataType::kInt64: got = proto.int64_data_size(); break;
    case DataType::kUint32:
    case DataType::kUint64: got = proto.uint64_data_size(); break;
    case DataType::kString: got = proto.string_data_size(); break;
    default: got = proto.int32_data_size(); break;
  }
  if (got != expected) {
    if (IsPackedSubByte(type)) {
      return InvalidArgument(label + ": " + field + " holds " + std::to_string(got) +
                             " values but " + DataTypeName(type) + shape.ToString() + " needs " +
                             std::to_string(expected) + " (" +
                             std::to_string(8 / DataTypeBits(type)) + " elements per value)");
    }
    return CountMismatch(label, field, got, expected, shape);
  }

  Tensor t(type, shape);
  Status st;
  switch (type) {
    case DataType::kFloat:
      std::copy(proto.float_data().begin(), proto.float_data().end(), t.mutable_data<float>());
      break;
    case DataType::kComplex64: {
      auto* out = t.mutable_data<std::complex<float>>();
      for (int64_t i = 0; i < n; ++i) {
        out[i] = {proto.float_data(2 * i), proto.float_data(2 * i + 1)};
      }
      break;
    }
    case DataType::kDouble:
      std::copy(proto.double_data().begin(), proto.double_data().end(), t.mutable_data<double>());
      break;
    case DataType::kComplex128: {
      auto* out = t.mutable_data<std::complex<double>>();
      for (int64_t i = 0; i < n; ++i) {
        out[i] = {proto.double_data(2 * i), proto.double_data(2 * i + 1)};
      }
      break;
    }
    case DataType::kInt64:
      std::copy(proto.int64_data().begin(), proto.int64_data().end(), t.mutable_data<int64_t>());
      break;
    case DataType::kUint64:
      std::copy(proto.uint64_data().begin(), proto.uint64_data().end(), t.mutable_data<uint64_t>());
      break;
    case DataType::kUint32: {
      auto* out = t.mutable_data<uint32_t>();
      for (int64_t i = 0; i < n; ++i) {
        uint64_t v = proto.uint64_data(i);
        if (v > std::numeric_limits<uint32_t>::max()) {
          return InvalidArgument(label + ": uint64_data[" + std::to_string(i) +
                                 "] = " + std::to_string(v) + " is out of range for UINT32");
        }
        out[i] = static_cast<uint32_t>(v);
      }
      break;
    }
    case DataType::kString:
      std::copy(proto.string_data().begin(), proto.string_data().end(),
                t.mutable_data<std::string>());
      break;
    case DataType::kInt32:
      std::copy(proto.int32_data().begin(), proto.int32_data().end(), t.mutable_data<int32_t>());
      break;
    case DataType::kInt16:
      st = FillFromInt32(label, type, proto, INT16_MIN, INT16_MAX, t.mutable_data<int16_t>());
      break;
    case DataType::kInt8:
      st = FillFromInt32(label, type, proto, INT8_MIN, INT8_MAX, t.mutable_data<int8_t>());
      break;
    case DataType::kUint16:
      st = FillFromInt32(label, type, proto, 0, UINT16_MAX, t.mutable_data<uint16_t>());
      break;
    case DataType::kUint8:
      st = FillFromInt32(label, type, proto, 0, UINT8_MAX, t.mutable_data<uint8_t>());
      break;
    case DataType::kBool:
      st = FillFromInt32(label, type, proto, 0, 1, t.mutable_data<bool>());
      break;
    case DataType::kFloat16:
    case DataType::kBFloat16: {
      // The 16 bits sit in the low half of each int32. Producers differ on sign extension, so
      // both [0, 65535] and the sign-extended [-32768, -1] are accepted (as onnx's reader does).
      std::vector<uint16_t> bits(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) {
        int64_t v = proto.int32_data(i);
        if (v < INT16_MIN || v > UINT16_MAX) {
          return InvalidArgument(label + ": int32_data[" + std::to_string(i) +
                                 "] = " + std::to_string(v) + " does not hold 16 bits of " +
                                 DataTypeName(type));
        }
        bits[i] = static_cast<uint16_t>(v & 0xFFFF);
      }
      if (n > 0) std::memcpy(t.mutable_raw_data(), bits.data(), bits.size() * sizeof(uint16_t));
      break;
    }
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat8E8M0:
    case DataType::kFloat4E2M1:
    case DataType::kInt4:
    case DataType::kUint4:
    case DataType::kInt2:
    case DataType::kUint2:
      st = FillBytesFromInt32(label, type, proto, static_cast<uint8_t*>(t.mutable_raw_data()));
      if (st.ok() && IsPackedSubByte(type) && n > 0) {
        ClearPackedPadding(type, t.mutable_raw_data(), n);
      }
      break;
    case DataType::kUndefined:
      return Unimplemented(label + ": reading " + DataTypeName(type) + " from typed fields");
  }
  ONNXGATE_RETURN_IF_ERROR(st);
  return t;
}

// "external data 'weights.bin'": where external bytes came from, for messages.
std::string ExternalSource(const onnx::TensorProto& proto) {
  for (const auto& entry : proto.external_data()) {
    if (entry.key() == "location") return "external data '" + entry.value() + "'";
  }
  return "external data";
}

std::string DirName(const std::string& path) {
  size_t pos = path.find_last_of('/');
  if (pos == std::string::npos) return ".";
  if (pos == 0) return "/";
  return path.substr(0, pos);
}

// TensorFromProto with the external-data reader of the caller's folder; `have_folder` is false
// when none is known.
StatusOr<Tensor> TensorFromProtoWith(
    const onnx::TensorProto& proto, bool have_folder,
    const std::function<StatusOr<std::string>(const onnx::TensorProto&)>& read_external) {
  const std::string label = TensorLabel(proto);
  ONNXGATE_ASSIGN_OR_RETURN(DeclaredTensor declared, DeclaredTensorOf(proto));
  const DataType type = declared.type;
  const Shape& shape = declared.shape;
  if (proto.has_segment()) {
    return Unimplemented(label + ": segmented tensors (TensorProto.segment) are not supported");
  }

  const std::vector<std::string> typed = NonEmptyTypedFields(proto);
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    if (!typed.empty() || proto.has_raw_data()) {
      return InvalidArgument(label + ": data is stored externally but the tensor also has " +
                             (typed.empty() ? std::string("raw_data") : typed.front()));
    }
    if (!have_folder) {
      return InvalidArgument(label +
                             ": data is stored externally but no model folder is known "
                             "to resolve its location against");
    }
    // The external-data reader has compared the byte count with the declaration before reading.
    ONNXGATE_ASSIGN_OR_RETURN(std::string bytes, read_external(proto));
    return FromRawBytes(label, declared, bytes, ExternalSource(proto).c_str());
  }

  if (!proto.raw_data().empty() && !typed.empty()) {
    return InvalidArgument(label + ": has data in both raw_data and " + typed.front() +
                           "; exactly one field may hold it");
  }
  if (!proto.raw_data().empty()) {
    return FromRawBytes(label, declared, proto.raw_data(), "raw_data");
  }
  if (typed.size() > 1) {
    return InvalidArgument(label + ": has data in both " + typed[0] + " and " + typed[1] +
                           "; exactly one field may hold it");
  }
  if (typed.size() == 1 && typed[0] != TypedFieldFor(type)) {
    return InvalidArgument(label + ": " + DataTypeName(type) + " data found in " + typed[0] +
                           "; ONNX stores it in " + TypedFieldFor(type) + " or raw_data");
  }
  if (typed.empty() && proto.has_raw_data()) {
    // An explicitly empty raw_data: only right for a tensor without elements.
    return FromRawBytes(label, declared, proto.raw_data(), "raw_data");
  }
  return FromTypedField(label, type, shape, proto);
}

}  // namespace

StatusOr<Tensor> TensorFromProto(const onnx::TensorProto& proto, const std::string& base_dir) {
  return TensorFromProtoWith(proto, !base_dir.empty(), [&](const onnx::TensorProto& p) {
    return ReadExternalData(p, base_dir);
  });
}

StatusOr<Tensor> TensorFromProto(const onnx::TensorProto& proto, const ContainedDir& base_dir) {
  return TensorFromProtoWith(
      proto, true, [&](const onnx::TensorProto& p) { return ReadExternalData(p, base_dir); });
}

StatusOr<Value> ValueFromSequenceProto(const onnx::SequenceProto& proto) {
  const std::string label =
      proto.name().empty() ? std::string("unnamed sequence") : "sequence '" + proto.name() + "'";
  switch (proto.elem_type()) {
    case onnx::SequenceProto::TENSOR:
    case onnx::SequenceProto::UNDEFINED: break;
    case onnx::SequenceProto::SPARSE_TENSOR:
      return Unimplemented(label + ": sequences of sparse tensors are not supported");
    case onnx::SequenceProto::SEQUENCE:
      return Unimplemented(label + ": sequences of sequences are not supported");
    case onnx::SequenceProto::MAP:
      return Unimplemented(label + ": sequences of maps are not supported");
    case onnx::SequenceProto::OPTIONAL:
      return Unimplemented(label + ": sequences of optionals are not supported");
    default:
      return InvalidArgument(label + ": unknown elem_type " + std::to_string(proto.elem_type()));
  }
  if (proto.sequence_values_size() > 0 || proto.map_values_size() > 0 ||
      proto.sparse_tensor_values_size() > 0 || proto.optional_values_size() > 0) {
    return InvalidArgument(label + ": elem_type says tensors but it holds other kinds of values");
  }
  std::vector<Tensor> tensors;
  DataType elem = DataType::kUndefined;
  for (int i = 0; i < proto.tensor_values_size(); ++i) {
    auto t = TensorFromProto(proto.tensor_values(i));
    if (!t.ok()) return t.status().WithContext(label + " item " + std::to_string(i));
    if (i > 0 && t->dtype() != elem) {
      return InvalidArgument(label + ": item " + std::to_string(i) + " is " +
                             DataTypeName(t->dtype()) + " but item 0 is " + DataTypeName(elem) +
                             "; a sequence holds one element type");
    }
    elem = t->dtype();
    tensors.push_back(std::move(t).value());
  }
  return Value::FromSequence(elem, std::move(tensors));
}

StatusOr<Value> ValueFromOptionalProto(const onnx::OptionalProto& proto) {
  const std::string label =
      proto.name().empty() ? std::string("unnamed optional") : "optional '" + proto.name() + "'";
  switch (proto.elem_type()) {
    case onnx::OptionalProto::TENSOR:
      if (proto.has_sequence_value()) break;
      if (!proto.has_tensor_value()) {
        return Value::OptionalNone(Value::Kind::kTensor, DataType::kUndefined);
      }
      {
        auto t = TensorFromProto(proto.tensor_value());
        if (!t.ok()) return t.status().WithContext(label);
        return Value::OptionalOf(Value::FromTensor(std::move(t).value()));
      }
    case onnx::OptionalProto::SEQUENCE:
      if (proto.has_tensor_value()) break;
      if (!proto.has_sequence_value()) {
        return Value::OptionalNone(Value::Kind::kSequence, DataType::kUndefined);
      }
      {
        auto s = ValueFromSequenceProto(proto.sequence_value());
        if (!s.ok()) return s.status().WithContext(label);
        return Value::OptionalOf(std::move(s).value());
      }
    case onnx::OptionalProto::UNDEFINED:
      if (proto.has_tensor_value() || proto.has_sequence_value() || proto.has_optional_value()) {
        break;
      }
      return Value::OptionalNone(Value::Kind::kNone, DataType::kUndefined);
    case onnx::OptionalProto::SPARSE_TENSOR:
      return Unimplemented(label + ": optionals of sparse tensors are not supported");
    case onnx::OptionalProto::MAP:
      return Unimplemented(label + ": optionals of maps are not supported");
    case onnx::OptionalProto::OPTIONAL:
      return Unimplemented(label + ": optionals of optionals are not supported");
    default:
      return InvalidArgument(label + ": unknown elem_type " + std::to_string(proto.elem_type()));
  }
  return InvalidArgument(label + ": the value it holds does not match its elem_type " +
                         std::to_string(proto.elem_type()));
}

StatusOr<Value> ParseValueProto(const std::string& bytes, const std::string& kind_hint,
                                const std::string& source, const ContainedDir* external_data_dir) {
  if (kind_hint != "tensor" && kind_hint != "sequence" && kind_hint != "optional") {
    return InvalidArgument("reading " + source + ": unknown value kind '" + kind_hint +
                           "'; expected tensor, sequence or optional");
  }
  if (kind_hint == "tensor") {
    onnx::TensorProto proto;
    if (!proto.ParseFromString(bytes)) {
      return DataLoss(source + ": not a valid serialized TensorProto (protobuf parse failed)");
    }
    auto t = external_data_dir != nullptr ? TensorFromProto(proto, *external_data_dir)
                                          : TensorFromProto(proto);
    if (!t.ok()) return t.status().WithContext(source);
    return Value::FromTensor(std::move(t).value());
  }
  StatusOr<Value> v = Internal("unreachable");
  if (kind_hint == "sequence") {
    onnx::SequenceProto proto;
    if (!proto.ParseFromString(bytes)) {
      return DataLoss(source + ": not a valid serialized SequenceProto (protobuf parse failed)");
    }
    v = ValueFromSequenceProto(proto);
  } else {
    onnx::OptionalProto proto;
    if (!proto.ParseFromString(bytes)) {
      return DataLoss(source + ": not a valid serialized OptionalProto (protobuf parse failed)");
    }
    v = ValueFromOptionalProto(proto);
  }
  if (!v.ok()) return v.status().WithContext(source);
  return v;
}

StatusOr<Value> ReadValueProtoFile(const std::string& path, const std::string& kind_hint) {
  if (kind_hint != "tensor" && kind_hint != "sequence" && kind_hint != "optional") {
    return ParseValueProto("", kind_hint, path, nullptr);
  }
  ONNXGATE_ASSIGN_OR_RETURN(std::string bytes,
                            ReadRegularFile(path, kMaxProtobufFileBytes, "value file"));
  StatusOr<ContainedDir> dir = ContainedDir::Open(DirName(path));
  return ParseValueProto(bytes, kind_hint, path, dir.ok() ? &*dir : nullptr);
}

namespace {

// The typed-field encoding of `tensor` (not STRING), the way onnx.helper.make_tensor writes it.
void WriteTypedField(const Tensor& tensor, onnx::TensorProto* proto) {
  const int64_t n = tensor.NumElements();
  switch (tensor.dtype()) {
    case DataType::kFloat:
      for (int64_t i = 0; i < n; ++i) proto->add_float_data(tensor.data<float>()[i]);
      return;
    case DataType::kComplex64:
      for (int64_t i = 0; i < n; ++i) {
        proto->add_float_data(tensor.data<std::complex<float>>()[i].real());
        proto->add_float_data(tensor.data<std::complex<float>>()[i].imag());
      }
      return;
    case DataType::kDouble:
      for (int64_t i = 0; i < n; ++i) proto->add_double_data(tensor.data<double>()[i]);
      return;
    case DataType::kComplex128:
      for (int64_t i = 0; i < n; ++i) {
        proto->add_double_data(tensor.data<std::complex<double>>()[i].real());
        proto->add_double_data(tensor.data<std::complex<double>>()[i].imag());
      }
      return;
    case DataType::kInt64:
      for (int64_t i = 0; i < n; ++i) proto->add_int64_data(tensor.data<int64_t>()[i]);
      return;
    case DataType::kUint32:
      for (int64_t i = 0; i < n; ++i) proto->add_uint64_data(tensor.data<uint32_t>()[i]);
      return;
    case DataType::kUint64:
      for (int64_t i = 0; i < n; ++i) proto->add_uint64_data(tensor.data<uint64_t>()[i]);
      return;
    case DataType::kInt32:
      for (int64_t i = 0; i < n; ++i) proto->add_int32_data(tensor.data<int32_t>()[i]);
      return;
    case DataType::kInt16:
      for (int64_t i = 0; i < n; ++i) proto->add_int32_data(tensor.data<int16_t>()[i]);
      return;
    case DataType::kInt8:
      for (int64_t i = 0; i < n; ++i) proto->add_int32_data(tensor.data<int8_t>()[i]);
      return;
    case DataType::kUint16:
      for (int64_t i = 0; i < n; ++i) proto->add_int32_data(tensor.data<uint16_t>()[i]);
      return;
    case DataType::kUint8:
      for (int64_t i = 0; i < n; ++i) proto->add_int32_data(tensor.data<uint8_t>()[i]);
      return;
    case DataType::kBool:
      for (int64_t i = 0; i < n; ++i) proto->add_int32_data(tensor.data<bool>()[i] ? 1 : 0);
      return;
    case DataType::kFloat16:
    case DataType::kBFloat16: {
      // The 16 bits, zero-extended (ONNX's writers do not sign-extend them).
      const uint16_t* bits = static_cast<const uint16_t*>(tensor.raw_data());
      for (int64_t i = 0; i < n; ++i) proto->add_int32_data(bits[i]);
      return;
    }
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat8E8M0:
    case DataType::kFloat4E2M1:
    case DataType::kInt4:
    case DataType::kUint4:
    case DataType::kInt2:
    case DataType::kUint2: {
      // One code per int32 for the 8-bit floats; one packed byte per int32 for sub-byte types.
      const uint8_t* bytes = static_cast<const uint8_t*>(tensor.raw_data());
      for (size_t i = 0; i < tensor.ByteSize(); ++i) proto->add_int32_data(bytes[i]);
      return;
    }
    case DataType::kString:
    case DataType::kUndefined: return;
  }
}

}  // namespace

onnx::TensorProto TensorToProto(const Tensor& tensor, const std::string& name,
                                TensorProtoStorage storage) {
  onnx::TensorProto proto;
  proto.set_name(name);
  proto.set_data_type(static_cast<int32_t>(tensor.dtype()));
  for (int64_t d : tensor.shape().dims()) proto.add_dims(d);
  if (tensor.dtype() == DataType::kString) {
    const std::string* s = tensor.data<std::string>();
    for (int64_t i = 0; i < tensor.NumElements(); ++i) proto.add_string_data(s[i]);
  } else if (storage == TensorProtoStorage::kTypedField) {
    WriteTypedField(tensor, &proto);
  } else {
    // bool is stored one byte per element holding 0 or 1, which is ONNX's raw layout as well;
    // sub-byte types are stored packed exactly as ONNX packs raw_data.
    proto.set_raw_data(static_cast<const char*>(tensor.raw_data()), tensor.ByteSize());
  }
  return proto;
}

namespace {

onnx::SequenceProto SequenceToProto(const Value& value, const std::string& name) {
  onnx::SequenceProto proto;
  proto.set_name(name);
  proto.set_elem_type(onnx::SequenceProto::TENSOR);
  for (const Tensor& t : value.sequence()) *proto.add_tensor_values() = TensorToProto(t, "");
  return proto;
}

}  // namespace

std::string SerializeValueProto(const Value& value, const std::string& name, std::string* kind) {
  if (value.is_sequence()) {
    *kind = "sequence";
    return SequenceToProto(value, name).SerializeAsString();
  }
  if (value.is_optional()) {
    *kind = "optional";
    onnx::OptionalProto proto;
    proto.set_name(name);
    const bool holds_sequence = value.optional_inner_kind() == Value::Kind::kSequence;
    proto.set_elem_type(holds_sequence ? onnx::OptionalProto::SEQUENCE
                                       : onnx::OptionalProto::TENSOR);
    if (value.has_value()) {
      const Value& inner = value.optional_value();
      if (inner.is_sequence()) {
        *proto.mutable_sequence_value() = SequenceToProto(inner, "");
      } else {
        *proto.mutable_tensor_value() = TensorToProto(inner.tensor(), "");
      }
    }
    return proto.SerializeAsString();
  }
  *kind = "tensor";
  return TensorToProto(value.tensor(), name).SerializeAsString();
}

}  // namespace onnxgate
