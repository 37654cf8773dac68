// Tensor: an element type, a shape and shared storage. Copies share storage; Clone() copies data.
#pragma once

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
  // Bytes of element storage; 0 for strings.
  size_t ByteSize() const { return static_cast<size_t>(NumElements()) * DataTypeSize(dtype_); }

  template <typename T>
  const T* data() const {
    ONNXGATE_CHECK(DataTypeOf<T>::value == dtype_);
    return static_cast<const T*>(storage_ptr());
  }
  template <typename T>
  T* mutable_data() {
    ONNXGATE_CHECK(DataTypeOf<T>::value == dtype_);
    return static_cast<T*>(storage_ptr());
  }
  const void* raw_data() const { return storage_ptr(); }
  void* mutable_raw_data() { return storage_ptr(); }

  // A deep copy with its own storage.
  Tensor Clone() const;
  // The same storage seen with another shape of the same element count.
  Tensor Reshaped(Shape shape) const;
  // "FLOAT[2,3] {1, 2, 3, ...}" with at most `max_elements` values.
  std::string DebugString(int64_t max_elements = 8) const;
  // The element at flat index i formatted for messages (shortest round-trip for floats).
  std::string ElementToString(int64_t i) const;

 private:
  struct Storage;
  void* storage_ptr() const;

  DataType dtype_ = DataType::kUndefined;
  Shape shape_;
  std::shared_ptr<Storage> storage_;
};

}  // namespace onnxgate
