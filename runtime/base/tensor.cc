// Tensor storage: one aligned byte block for numeric types (packed for the sub-byte types), a
// string vector for kString; element formatting for every type.
#include "runtime/base/tensor.h"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <new>

namespace onnxgate {

struct Tensor::Storage {
  Storage(size_t bytes, bool cleared) : size(bytes) {
    // 64-byte alignment suits every SIMD width the EPs use; never a null pointer.
    size_t rounded = ((bytes + 63) / 64) * 64;
    data = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
    if (data == nullptr) throw std::bad_alloc();
    if (cleared) std::memset(data, 0, rounded == 0 ? 64 : rounded);
  }
  explicit Storage(std::vector<std::string> s) : strings(std::move(s)) {}
  ~Storage() { std::free(data); }
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data = nullptr;
  size_t size = 0;
  std::vector<std::string> strings;
};

Tensor::Tensor(DataType dtype, Shape shape) : Tensor(dtype, std::move(shape), true) {}

Tensor::Tensor(DataType dtype, Shape shape, bool cleared)
    : dtype_(dtype), shape_(std::move(shape)) {
  ONNXGATE_CHECK(shape_.Validate().ok());
  if (dtype_ == DataType::kString) {
    storage_ = std::make_shared<Storage>(std::vector<std::string>(NumElements()));
  } else {
    storage_ = std::make_shared<Storage>(ByteSize(), cleared);
  }
}

Tensor Tensor::Uninitialized(DataType dtype, Shape shape) {
  ONNXGATE_CHECK(dtype != DataType::kString);
  return Tensor(dtype, std::move(shape), false);
}

void* Tensor::storage_ptr() const {
  if (!storage_) return nullptr;
  if (dtype_ == DataType::kString) return storage_->strings.data();
  return storage_->data;
}

Tensor Tensor::Clone() const {
  if (!defined()) return Tensor();
  Tensor t(dtype_, shape_);
  if (dtype_ == DataType::kString) {
    t.storage_->strings = storage_->strings;
  } else if (ByteSize() > 0) {
    std::memcpy(t.storage_->data, storage_->data, ByteSize());
  }
  return t;
}

uint8_t Tensor::PackedCode(int64_t i) const {
  ONNXGATE_CHECK(IsPackedSubByte(dtype_) && i >= 0 && i < NumElements());
  return GetPackedCode(dtype_, storage_->data, i);
}

void Tensor::SetPackedCode(int64_t i, uint8_t code) {
  ONNXGATE_CHECK(IsPackedSubByte(dtype_) && i >= 0 && i < NumElements());
  ::onnxgate::SetPackedCode(dtype_, storage_->data, i, code);
}

int32_t Tensor::SubByteInt(int64_t i) const {
  ONNXGATE_CHECK(IsSubByteInteger(dtype_));
  return SubByteIntFromCode(dtype_, PackedCode(i));
}

Status Tensor::SetSubByteInt(int64_t i, int64_t value) {
  ONNXGATE_CHECK(IsSubByteInteger(dtype_));
  ONNXGATE_ASSIGN_OR_RETURN(uint8_t code, SubByteIntToCode(dtype_, value));
  SetPackedCode(i, code);
  return OkStatus();
}

StatusOr<Tensor> Tensor::FromSubByteInts(DataType dtype, Shape shape,
                                         const std::vector<int32_t>& values) {
  if (!IsSubByteInteger(dtype)) {
    return InvalidArgument(std::string(DataTypeName(dtype)) + " is not a sub-byte integer type");
  }
  Tensor t(dtype, std::move(shape));
  if (static_cast<int64_t>(values.size()) != t.NumElements()) {
    return InvalidArgument(std::to_string(values.size()) + " values for " + DataTypeName(dtype) +
                           t.shape().ToString());
  }
  for (size_t i = 0; i < values.size(); ++i) {
    Status st = t.SetSubByteInt(static_cast<int64_t>(i), values[i]);
    if (!st.ok()) return st.WithContext("element " + std::to_string(i));
  }
  return t;
}

Tensor Tensor::FromFloat4(Shape shape, const std::vector<Float4E2M1>& values) {
  Tensor t(DataType::kFloat4E2M1, std::move(shape));
  ONNXGATE_CHECK(static_cast<int64_t>(values.size()) == t.NumElements());
  for (size_t i = 0; i < values.size(); ++i)
    t.SetPackedCode(static_cast<int64_t>(i), values[i].bits);
  return t;
}

double Tensor::ElementAsDouble(int64_t i) const {
  switch (dtype_) {
    case DataType::kFloat: return data<float>()[i];
    case DataType::kDouble: return data<double>()[i];
    case DataType::kFloat16: return data<Float16>()[i].ToFloat();
    case DataType::kBFloat16: return data<BFloat16>()[i].ToFloat();
    case DataType::kInt8: return data<int8_t>()[i];
    case DataType::kInt16: return data<int16_t>()[i];
    case DataType::kInt32: return data<int32_t>()[i];
    case DataType::kInt64: return static_cast<double>(data<int64_t>()[i]);
    case DataType::kUint8: return data<uint8_t>()[i];
    case DataType::kUint16: return data<uint16_t>()[i];
    case DataType::kUint32: return data<uint32_t>()[i];
    case DataType::kUint64: return static_cast<double>(data<uint64_t>()[i]);
    case DataType::kBool: return data<bool>()[i] ? 1 : 0;
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat8E8M0:
      return LowPrecisionFloatToFloat(dtype_, static_cast<const uint8_t*>(storage_->data)[i]);
    case DataType::kFloat4E2M1: return LowPrecisionFloatToFloat(dtype_, PackedCode(i));
    case DataType::kInt4:
    case DataType::kUint4:
    case DataType::kInt2:
    case DataType::kUint2: return SubByteInt(i);
    case DataType::kString:
    case DataType::kComplex64:
    case DataType::kComplex128:
    case DataType::kUndefined: break;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

Tensor Tensor::Reshaped(Shape shape) const {
  ONNXGATE_CHECK(shape.NumElements() == NumElements());
  Tensor t = *this;
  t.shape_ = std::move(shape);
  return t;
}

std::string Tensor::ElementToString(int64_t i) const {
  char buf[64];
  switch (dtype_) {
    case DataType::kFloat: std::snprintf(buf, sizeof buf, "%.9g", data<float>()[i]); return buf;
    case DataType::kDouble: std::snprintf(buf, sizeof buf, "%.17g", data<double>()[i]); return buf;
    case DataType::kFloat16:
      std::snprintf(buf, sizeof buf, "%.5g", data<Float16>()[i].ToFloat());
      return buf;
    case DataType::kBFloat16:
      std::snprintf(buf, sizeof buf, "%.4g", data<BFloat16>()[i].ToFloat());
      return buf;
    case DataType::kInt8: return std::to_string(data<int8_t>()[i]);
    case DataType::kInt16: return std::to_string(data<int16_t>()[i]);
    case DataType::kInt32: return std::to_string(data<int32_t>()[i]);
    case DataType::kInt64: return std::to_string(data<int64_t>()[i]);
    case DataType::kUint8: return std::to_string(data<uint8_t>()[i]);
    case DataType::kUint16: return std::to_string(data<uint16_t>()[i]);
    case DataType::kUint32: return std::to_string(data<uint32_t>()[i]);
    case DataType::kUint64: return std::to_string(data<uint64_t>()[i]);
    case DataType::kBool: return data<bool>()[i] ? "true" : "false";
    case DataType::kString: return "\"" + data<std::string>()[i] + "\"";
    case DataType::kComplex64: {
      auto c = data<std::complex<float>>()[i];
      std::snprintf(buf, sizeof buf, "(%.9g%+.9gj)", c.real(), c.imag());
      return buf;
    }
    case DataType::kComplex128: {
      auto c = data<std::complex<double>>()[i];
      std::snprintf(buf, sizeof buf, "(%.17g%+.17gj)", c.real(), c.imag());
      return buf;
    }
    case DataType::kFloat8E4M3FN:
    case DataType::kFloat8E4M3FNUZ:
    case DataType::kFloat8E5M2:
    case DataType::kFloat8E5M2FNUZ:
    case DataType::kFloat8E8M0:
    case DataType::kFloat4E2M1:
      // Nine significant digits read back as the same float, hence as the same code.
      std::snprintf(buf, sizeof buf, "%.9g", ElementAsDouble(i));
      return buf;
    case DataType::kInt4:
    case DataType::kUint4:
    case DataType::kInt2:
    case DataType::kUint2: return std::to_string(SubByteInt(i));
    case DataType::kUndefined: break;
  }
  return "?";
}

std::string Tensor::DebugString(int64_t max_elements) const {
  if (!defined()) return "<undefined tensor>";
  std::string s = std::string(DataTypeName(dtype_)) + shape_.ToString() + " {";
  int64_t n = NumElements();
  for (int64_t i = 0; i < n && i < max_elements; ++i) {
    if (i) s += ", ";
    s += ElementToString(i);
  }
  if (n > max_elements) s += ", ...";
  return s + "}";
}

}  // namespace onnxgate
