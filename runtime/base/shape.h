// Shape: the int64 dims of a tensor; rank 0 is a scalar with one element.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "runtime/base/status.h"

namespace onnxgate {

class Shape {
 public:
  Shape() = default;
  Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
  explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}

  size_t rank() const { return dims_.size(); }
  const std::vector<int64_t>& dims() const { return dims_; }
  int64_t operator[](size_t i) const { return dims_[i]; }
  int64_t& operator[](size_t i) { return dims_[i]; }

  // Product of the dims. The caller must have validated the shape (see Validate).
  int64_t NumElements() const;
  // Row-major strides in elements.
  std::vector<int64_t> Strides() const;
  // InvalidArgument for a negative dim, or a product that overflows int64 or exceeds `limit`.
  Status Validate(int64_t limit = INT64_MAX) const;
  // "[2,3,4]"; "[]" for a scalar.
  std::string ToString() const;

  bool operator==(const Shape& o) const { return dims_ == o.dims_; }
  bool operator!=(const Shape& o) const { return dims_ != o.dims_; }

 private:
  std::vector<int64_t> dims_;
};

// numpy-style multidirectional broadcasting of two shapes.
StatusOr<Shape> BroadcastShapes(const Shape& a, const Shape& b);

// Maps a possibly negative axis into [0, rank); InvalidArgument when out of range.
StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank);

}  // namespace onnxgate
