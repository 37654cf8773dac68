// Tensor: an element type, a shape and shared storage. Copies share storage; Clone() copies data.
// The sub-byte types (INT4, UINT4, FLOAT4E2M1, INT2, UINT2) are stored packed as ONNX packs them.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime/base/check.h"
#include "runtime/base/data_type.h"
#include "runtime/base/shape.h"

namespace onnxgate {

class Tensor {
 public:
  Tensor() = default;
  // Allocates zero-initialised storage (empty strings for kString). The shape must be valid.
  Tensor(DataType dtype, Shape shape);
  // Storage left as the allocator gives it, not cleared: only for a writer that sets every element
  // before the tensor is read (a oneDNN primitive's destination). Not for kString.
  static Tensor Uninitialized(DataType dtype, Shape shape);

  template <typename T>
  static Tensor FromVector(Shape shape, const std::vector<T>& values) {
    Tensor t(DataTypeOf<T>::value, std::move(shape));
    ONNXGATE_CHECK(static_cast<int64_t>(values.size()) == t.NumElements());
    T* out = t.mutable_data<T>();
    for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
    return t;
  }
  template <typename T>
  static Tensor Scalar(T value) {
    return FromVector<T>(Shape{}, std::vector<T>{value});
  }

  bool defined() const { return dtype_ != DataType::kUndefined; }
  DataType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int64_t NumElements() const { return shape_.NumElements(); }
  // Bytes of element storage; 0 for strings. Packed types take ceil(n * bits / 8) bytes.
  size_t ByteSize() const { return DataTypeStorageBytes(dtype_, NumElements()); }

  // Typed access, CHECKed against the tensor's type. Never for packed types: no C++ type may map
  // to one (the static_assert keeps it so), so the CHECK refuses every T on a packed tensor.
  template <typename T>
  const T* data() const {
    static_assert(!IsPackedSubByte(DataTypeOf<T>::value), "packed types have no element pointer");
    ONNXGATE_CHECK(DataTypeOf<T>::value == dtype_);
    return static_cast<const T*>(storage_ptr());
  }
  template <typename T>
  T* mutable_data() {
    static_assert(!IsPackedSubByte(DataTypeOf<T>::value), "packed types have no element pointer");
    ONNXGATE_CHECK(DataTypeOf<T>::value == dtype_);
    return static_cast<T*>(storage_ptr());
  }

  // Element access for packed types (IsPackedSubByte). Storage follows ONNX's raw_data packing:
  // element 2k in the low nibble of byte k and 2k+1 in the high nibble (4-bit types); element 4k
  // in bits 0-1 of byte k, 4k+1 in bits 2-3, ... (2-bit types); padding bits are zero.
  // The 4- or 2-bit code of element i (for FLOAT4E2M1 the Float4E2M1 bits).
  uint8_t PackedCode(int64_t i) const;
  // Sets element i to the low bits of `code`.
  void SetPackedCode(int64_t i, uint8_t code);
  // INT4/UINT4/INT2/UINT2: the value of element i, and setting it (InvalidArgument out of range).
  int32_t SubByteInt(int64_t i) const;
  Status SetSubByteInt(int64_t i, int64_t value);
  // A packed INT4/UINT4/INT2/UINT2 tensor of `values`; InvalidArgument naming the first value
  // out of range. The count must match the shape.
  static StatusOr<Tensor> FromSubByteInts(DataType dtype, Shape shape,
                                          const std::vector<int32_t>& values);
  // A packed FLOAT4E2M1 tensor of `values`.
  static Tensor FromFloat4(Shape shape, const std::vector<Float4E2M1>& values);
  // The element at flat index i as a double, for every type with a numeric value (not strings
  // or complex): floats decoded (NaN, infinities kept), integers and bools converted.
  double ElementAsDouble(int64_t i) const;
  const void* raw_data() const { return storage_ptr(); }
  void* mutable_raw_data() { return storage_ptr(); }

  // A deep copy with its own storage.
  Tensor Clone() const;
  // The same storage seen with another shape of the same element count.
  Tensor Reshaped(Shape shape) const;
  // "FLOAT[2,3] {1, 2, 3, ...}" with at most `max_elements` values.
  std::string DebugString(int64_t max_elements = 8) const;
  // The element at flat index i formatted for messages (shortest round-trip for floats; the
  // decoded value for the 8-bit and 4-bit floats and the sub-byte integers).
  std::string ElementToString(int64_t i) const;

 private:
  struct Storage;
  void* storage_ptr() const;
  Tensor(DataType dtype, Shape shape, bool cleared);

  DataType dtype_ = DataType::kUndefined;
  Shape shape_;
  std::shared_ptr<Storage> storage_;
};

}  // namespace onnxgate
